package io.sluice.cli.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cli.Cli;
import io.sluice.cli.ExitStatus;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.testkit.Names;
import io.sluice.testkit.TestDirs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * Pipelines that reach the brokers over TLS with SCRAM, against a broker with plain, TLS and SCRAM-over-TLS
 * listeners: {@code lag} maps the file's tls and sasl sections onto its clients; {@code run} and
 * {@code validate --connect} name a listener that speaks another protocol than the file says before any client
 * exists, with exit status 2.
 */
class SecureBrokersTest {

    private final KafkaCluster kafka = SecureKafka.cluster();

    @Test
    void lagReadsAPipelineThatConnectsOverTlsWithScramAndPrintsNoSecret() throws Exception {
        String topic = Names.unique("secure-lag");
        String group = Names.unique("secure-group");
        kafka.createTopic(topic, 1);
        produce(topic, 30);
        kafka.admin().alterConsumerGroupOffsets(group, Map.of(new TopicPartition(topic, 0), new OffsetAndMetadata(10)))
                .all().get(30, TimeUnit.SECONDS);
        Path file = pipeline(kafka.bootstrapServers(Listener.SASL), topic, group, """
                  tls:
                    truststore: %s
                    truststore-password: ${TRUSTSTORE_PASSWORD}
                  sasl:
                    mechanism: SCRAM-SHA-256
                    username: %s
                    password: ${KAFKA_PASSWORD}
                """.formatted(kafka.tls().trustStore(), kafka.scramUser()));
        Map<String, String> env = Map.of("TRUSTSTORE_PASSWORD", kafka.tls().password(), "KAFKA_PASSWORD",
                kafka.scramPassword());

        Cli.Result lag = Cli.run(env, "lag", file.toString(), "--interval", "100ms");

        assertEquals(ExitStatus.OK, lag.status(), lag.out() + lag.err());
        List<List<String>> rows = lag.out().lines().map(l -> List.of(l.trim().split("\\s{2,}"))).toList();
        assertTrue(rows.stream().anyMatch(r -> r.size() == 10 && r.subList(0, 5).equals(List.of(topic, "0", "30",
                "10", "20"))), lag.out());
        assertTrue(lag.out().startsWith("Group " + group + " at "), lag.out());
        String all = lag.out() + lag.err();
        assertFalse(all.contains(kafka.scramPassword()) || all.contains(kafka.tls().password()), all);
    }

    @Test
    void runAndValidateConnectNameTheProtocolAPortSpeaksBeforeAnyClient() throws Exception {
        String tlsPort = kafka.bootstrapServers(Listener.SSL);
        Path plainToTls = pipeline(tlsPort, "orders", "g", "");
        String expected = plainToTls + ":3:22: source.bootstrap-servers: " + tlsPort + ": this port speaks TLS, but "
                + "security.protocol is PLAINTEXT: set security.protocol=SSL (in a pipeline file: a source.tls section)";

        Cli.Result run = Cli.run("run", plainToTls.toString());
        assertEquals(ExitStatus.USAGE, run.status(), run.err());
        assertEquals(List.of(expected), run.err().lines().toList());

        Cli.Result connect = Cli.run("validate", "--connect", plainToTls.toString());
        assertEquals(ExitStatus.USAGE, connect.status(), connect.err());
        assertEquals(List.of(expected), connect.err().lines().toList());

        String plainPort = kafka.bootstrapServers(Listener.PLAINTEXT);
        Path tlsToPlain = pipeline(plainPort, "orders", "g", "  tls:\n    verify-hostname: false\n");
        Cli.Result wrongWay = Cli.run("run", tlsToPlain.toString());
        assertEquals(ExitStatus.USAGE, wrongWay.status(), wrongWay.err());
        assertEquals(List.of(tlsToPlain + ":3:22: source.bootstrap-servers: " + plainPort + ": this port speaks plain "
                + "TCP, not TLS, but security.protocol is SSL: set security.protocol=PLAINTEXT (in a pipeline file: no "
                + "source.tls or source.sasl section)"), wrongWay.err().lines().toList());
    }

    /**
     * A truststore password that does not open the file, given as a Kafka setting: said in words with the file and
     * what to check (a new user's run read "unexpected error: kafka: Failed to create new KafkaAdminClient", the
     * cause only with --verbose, in a stack trace).
     */
    @Test
    void aTruststorePasswordThatDoesNotOpenItsFileIsSaidInWords() {
        Cli.Result check = Cli.run("reassign", "check", "-b", kafka.bootstrapServers(Listener.SSL),
                "-X", "security.protocol=SSL", "-X", "ssl.truststore.location=" + kafka.tls().trustStore(),
                "-X", "ssl.truststore.password=not-it");
        assertEquals(ExitStatus.FAILURE, check.status(), check.err());
        assertTrue(check.err().contains("sluice: ") && check.err().contains(kafka.tls().trustStore().toString())
                && check.err().contains("keystore password was incorrect (a truststore or keystore password does not "
                + "open its file"), check.err());
        assertFalse(check.err().contains("unexpected error") || check.err().contains("Exception"), check.err());
    }

    /** A truststore of another authority: the TLS handshake failed here, not a login the brokers refused. */
    @Test
    void aTruststoreThatDoesNotTrustTheBrokersIsSaidSo() throws Exception {
        io.sluice.local.tls.TlsMaterial other = io.sluice.local.tls.TlsMaterial.generate(TestDirs.newDir("other-ca"));
        Path lines = TestDirs.newDir("untrusted").resolve("lines.txt");
        Files.writeString(lines, "one\n");
        Cli.Result produce = Cli.run("produce", "-b", kafka.bootstrapServers(Listener.SSL), "-t", "orders",
                "-X", "security.protocol=SSL", "-X", "ssl.truststore.location=" + other.trustStore(),
                "-X", "ssl.truststore.password=" + other.password(), "-X", "ssl.endpoint.identification.algorithm=",
                lines.toString());
        assertEquals(ExitStatus.FAILURE, produce.status(), produce.err());
        assertTrue(produce.err().contains("the TLS handshake with the brokers at " + kafka.bootstrapServers(
                Listener.SSL) + " failed: ") && produce.err().contains("(the truststore does not hold the certificate "
                + "of the authority that signed the brokers' certificates)"), produce.err());
        assertFalse(produce.err().contains("refused the login"), produce.err());
    }

    private static Path pipeline(String servers, String topic, String group, String security) throws Exception {
        Path file = TestDirs.newDir("secure").resolve("pipeline.yaml");
        Files.writeString(file, """
                # a pipeline on the secure broker
                source:
                  bootstrap-servers: %s
                  topics: [%s]
                  group: %s
                %ssink:
                  location: archive
                """.formatted(servers, topic, group, security));
        return file;
    }

    private void produce(String topic, int count) {
        Map<String, Object> props = new HashMap<>(kafka.clientProperties(Listener.PLAINTEXT));
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(props, new StringSerializer(),
                new StringSerializer())) {
            for (int i = 0; i < count; i++) {
                producer.send(new ProducerRecord<>(topic, "k" + i, "{\"n\":" + i + "}"));
            }
            producer.flush();
        }
    }
}
