package io.sluice.local.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testkit.Names;
import io.sluice.testkit.kafka.TestRecords;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class SecureListenersTest {

    private static KafkaCluster kafka;

    @BeforeAll
    static void start() {
        kafka = KafkaCluster.builder().name("secure").tls().scram().start();
    }

    @AfterAll
    static void stop() {
        kafka.close();
    }

    @Test
    void aTlsClientProducesAndConsumesOverTheTlsListener() {
        String topic = Names.unique("tls");
        kafka.createTopic(topic, 2);
        Map<String, Object> tls = kafka.clientProperties(Listener.SSL);
        TestRecords.produceNumbered(tls, topic, 0, 1_000);
        assertEquals(1_000, TestRecords.readAll(tls, topic, Duration.ofSeconds(30)).size());
    }

    @Test
    void aPlaintextClientDoesNotGetThroughTheTlsListener() {
        Map<String, Object> wrong = new HashMap<>();
        wrong.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(Listener.SSL));
        wrong.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 3_000);
        wrong.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 2_000);
        long start = System.nanoTime();
        try (Admin admin = Admin.create(wrong)) {
            assertThrows(ExecutionException.class,
                    () -> admin.describeCluster().nodes().get(20, TimeUnit.SECONDS));
        }
        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(20), "fails within the client's own timeout");
    }

    @Test
    void scramUsersLogInOverTlsAndAWrongPasswordIsRejected() throws Exception {
        String topic = Names.unique("scram");
        kafka.createTopic(topic, 1);
        Map<String, Object> sasl = kafka.clientProperties(Listener.SASL);
        assertEquals("SASL_SSL", sasl.get(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG));
        TestRecords.produceNumbered(sasl, topic, 0, 100);
        assertEquals(100, TestRecords.readAll(sasl, topic, Duration.ofSeconds(30)).size());

        Map<String, Object> wrong = new HashMap<>(sasl);
        wrong.putAll(KafkaCluster.scramClientProperties(kafka.scramUser(), "not-the-password"));
        wrong.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10_000);
        wrong.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000);
        try (Admin admin = Admin.create(wrong)) {
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> admin.describeCluster().nodes().get(20, TimeUnit.SECONDS));
            assertInstanceOf(SaslAuthenticationException.class, e.getCause());
        }
    }
}
