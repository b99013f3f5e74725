package io.sluice.cli.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cli.Cli;
import io.sluice.cli.ExitStatus;
import io.sluice.local.tls.TlsMaterial;
import io.sluice.testkit.TestDirs;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A truststore or keystore is opened as the Kafka client will open it, by {@code validate} without a cluster: a wrong
 * password, a PKCS12 truststore without its password (no certificate can be read), a file that is no store. A new
 * user met the first as "unexpected error: Failed to construct kafka consumer", the second as 350 lines of failed
 * handshakes and a timeout.
 */
class TlsStoresTest {

    private static TlsMaterial tls;

    @BeforeAll
    static void stores() {
        tls = TlsMaterial.generate(TestDirs.newDir("tls-stores"));
    }

    private static Path pipeline(String tlsSection) throws Exception {
        return pipeline(tlsSection, "");
    }

    /** A pipeline whose source has {@code tlsSection} and, after it, {@code more} (indented as its keys). */
    private static Path pipeline(String tlsSection, String more) throws Exception {
        Path file = TestDirs.newDir("tls-stores").resolve("pipeline.yaml");
        Files.writeString(file, """
                source:
                  bootstrap-servers: localhost:9093
                  topics: [orders]
                  group: archive
                  tls:
                %s%ssink:
                  location: archive
                """.formatted(tlsSection, more));
        return file;
    }

    @Test
    void theRightPasswordOpensTheTruststore() throws Exception {
        Cli.Result result = Cli.run("validate", pipeline("""
                    truststore: %s
                    truststore-password: %s
                """.formatted(tls.trustStore(), tls.password())).toString());
        assertEquals(ExitStatus.OK, result.status(), result.out() + result.err());
    }

    /** The password given as the client's own setting in the section's properties opens it too (a review's case). */
    @Test
    void thePasswordGivenAsAClientPropertyOpensTheTruststore() throws Exception {
        Path file = pipeline("    truststore: %s\n".formatted(tls.trustStore()),
                "  properties:\n    ssl.truststore.password: %s\n".formatted(tls.password()));
        Cli.Result result = Cli.run("validate", file.toString());
        assertEquals(ExitStatus.OK, result.status(), result.out() + result.err());
    }

    @Test
    void aWrongPasswordIsSaidWithItsKey() throws Exception {
        Cli.Result result = Cli.run("validate", pipeline("""
                    truststore: %s
                    truststore-password: not-it
                """.formatted(tls.trustStore())).toString());
        assertEquals(ExitStatus.USAGE, result.status(), result.out() + result.err());
        assertTrue(result.err().contains("source.tls.truststore-password: does not open " + tls.trustStore()),
                result.err());
        assertTrue(!result.err().contains("Exception"), result.err());
    }

    @Test
    void aTruststoreWithoutItsPasswordIsSaidToNeedIt() throws Exception {
        Cli.Result result = Cli.run("validate", pipeline("""
                    truststore: %s
                """.formatted(tls.trustStore())).toString());
        assertEquals(ExitStatus.USAGE, result.status(), result.out() + result.err());
        assertTrue(result.err().contains("source.tls.truststore: " + tls.trustStore()) && result.err().contains(
                "set source.tls.truststore-password"), result.err());
    }

    @Test
    void aFileThatIsNoStoreIsSaidToBeNone() throws Exception {
        Path notAStore = TestDirs.newDir("tls-stores").resolve("ca.p12");
        Files.writeString(notAStore, "-----BEGIN CERTIFICATE-----\nnot really\n");
        Cli.Result result = Cli.run("validate", pipeline("""
                    truststore: %s
                    truststore-password: whatever
                """.formatted(notAStore)).toString());
        assertEquals(ExitStatus.USAGE, result.status(), result.out() + result.err());
        assertTrue(result.err().contains("source.tls.truststore: " + notAStore + " cannot be read as a PKCS12 store"),
                result.err());
    }
}
