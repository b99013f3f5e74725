package io.sluice.cli.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** A probe's fix, said in a pipeline file's terms: the file's key or section, not only the client's setting. */
class BrokerCheckTest {

    @Test
    void aFixIsSaidInThePipelineFilesTerms() {
        assertEquals("h:9093: this port speaks TLS, but security.protocol is PLAINTEXT: set security.protocol=SSL (in a "
                + "pipeline file: a source.tls section)", BrokerCheck.inFileTerms("h:9093: this port speaks TLS, but "
                + "security.protocol is PLAINTEXT: set security.protocol=SSL"));
        assertEquals("h:9094: the listener offers SASL mechanisms [SCRAM-SHA-256], not PLAIN: set "
                + "sasl.mechanism=SCRAM-SHA-256 (in a pipeline file: source.sasl.mechanism)", BrokerCheck.inFileTerms(
                        "h:9094: the listener offers SASL mechanisms [SCRAM-SHA-256], not PLAIN: set "
                        + "sasl.mechanism=SCRAM-SHA-256"));
        assertEquals("h:9092: nothing listens there", BrokerCheck.inFileTerms("h:9092: nothing listens there"));
    }
}
