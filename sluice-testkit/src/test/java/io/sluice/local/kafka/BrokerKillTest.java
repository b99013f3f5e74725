package io.sluice.local.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.sluice.testkit.Names;
import io.sluice.testkit.kafka.TestRecords;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("slow")
class BrokerKillTest {

    @Test
    void everyAcknowledgedRecordSurvivesKillNineAndRestartOnTheSameData() {
        try (KafkaCluster kafka = KafkaCluster.builder().name("kill-restart").start()) {
            String topic = Names.unique("survivors");
            kafka.createTopic(topic, 3);
            List<RecordMetadata> acked = TestRecords.produceNumbered(kafka.clientProperties(Listener.PLAINTEXT),
                    topic, 0, 20_000);

            KafkaNode broker = kafka.node(1);
            broker.kill();
            assertFalse(broker.isRunning());
            broker.start();

            // more records after the restart prove the broker serves writes again, not only reads
            acked.addAll(TestRecords.produceNumbered(kafka.clientProperties(Listener.PLAINTEXT), topic, 20_000, 1_000));
            Set<String> read = new HashSet<>(TestRecords.values(
                    TestRecords.readAll(kafka.clientProperties(Listener.PLAINTEXT), topic, Duration.ofSeconds(60))));
            assertEquals(21_000, acked.size());
            for (int i = 0; i < 21_000; i++) {
                if (!read.contains("v" + i)) {
                    throw new AssertionError("acknowledged record v" + i + " is missing after kill -9 and restart");
                }
            }
            assertEquals(21_000, read.size());
        }
    }
}
