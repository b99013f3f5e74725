package io.sluice.bench.systems;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The ceiling: one KafkaConsumer poll loop handling records on its own thread, as fast as Kafka delivers them.
 * {@code settings} are added to the consumer's (say, the fetch sizes the compared system uses).
 */
final class PlainConsumerSystem {

    private PlainConsumerSystem() {
    }

    /** What the loop does with each value. */
    @FunctionalInterface
    interface ValueHandler {
        void handle(byte[] value) throws Exception;
    }

    static void run(String bootstrap, String topic, Map<String, Object> settings, ValueHandler handler,
            Measurement m) throws Exception {
        Map<String, Object> props = new HashMap<>(settings);
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.GROUP_ID_CONFIG, SystemMain.group("plain"));
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, true);
        try (var consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(topic));
            while (!m.done()) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(100))) {
                    handler.handle(r.value());
                }
            }
        }
    }
}
