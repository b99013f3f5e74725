package io.sluice.producer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/** The safe settings and the tally with a real broker. */
class DeliveryTallyBrokerTest {

    private final KafkaCluster kafka = SharedKafka.cluster();

    @Test
    void everyRecordSentToATopicIsAcknowledgedAndTimed() {
        String topic = Names.unique("tally");
        kafka.createTopic(topic, 3);
        DeliveryTally tally = new DeliveryTally();
        long bytes = 0;
        try (KafkaProducer<String, String> producer = producer(ProducerSettings.on(connection()).build())) {
            for (int line = 1; line <= 2_000; line++) {
                String value = "{\"line\":" + line + "}";
                bytes += value.getBytes(StandardCharsets.UTF_8).length;
                producer.send(new ProducerRecord<>(topic, "k" + line, value),
                        tally.sent("input.jsonl:" + line, value.getBytes(StandardCharsets.UTF_8).length));
            }
            producer.flush();
        }
        DeliverySnapshot s = tally.snapshot();
        assertEquals(2_000, s.sent());
        assertEquals(2_000, s.acknowledged());
        assertEquals(0, s.failed());
        assertEquals(0, s.pending());
        assertEquals(bytes, s.bytesSent());
        assertEquals(bytes, s.bytesAcknowledged());
        assertTrue(s.ackP50().compareTo(Duration.ZERO) > 0, "p50 " + s.ackP50());
        assertTrue(s.ackP99().compareTo(s.ackP50()) >= 0 && s.ackMax().compareTo(s.ackP99()) >= 0, s.toString());
        assertTrue(s.ackMax().compareTo(Duration.ofSeconds(60)) < 0, s.toString());
    }

    @Test
    void aRecordForATopicThatDoesNotExistIsCountedAsFailedWithItsOrigin() {
        String topic = Names.unique("missing"); // the test broker does not create topics on first use
        ProducerSettings settings = ProducerSettings.on(connection())
                .set(ProducerConfig.MAX_BLOCK_MS_CONFIG, 1_000)
                .set(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 1_000)
                .set(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 2_000)
                .build();
        DeliveryTally tally = new DeliveryTally();
        try (KafkaProducer<String, String> producer = producer(settings)) {
            producer.send(new ProducerRecord<>(topic, "k", "v"), tally.sent("orders.csv:7", 1));
            producer.flush();
        }
        DeliverySnapshot s = tally.snapshot();
        assertEquals(1, s.sent());
        assertEquals(0, s.acknowledged());
        assertEquals(1, s.failed());
        assertEquals(0, s.bytesAcknowledged());
        DeliveryFailure failure = s.firstFailures().get(0);
        assertEquals("orders.csv:7", failure.origin());
        assertTrue(failure.error() instanceof TimeoutException, failure.toString());
        assertTrue(failure.reason().contains(topic), failure.reason());
    }

    private Map<String, Object> connection() {
        return kafka.clientProperties(Listener.PLAINTEXT);
    }

    private static KafkaProducer<String, String> producer(ProducerSettings settings) {
        return new KafkaProducer<>(settings.properties(), new StringSerializer(), new StringSerializer());
    }
}
