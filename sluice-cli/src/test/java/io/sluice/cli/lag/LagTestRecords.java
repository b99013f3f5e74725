package io.sluice.cli.lag;

import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/** Records of 1,000 bytes with chosen timestamps, for the lag tests. */
final class LagTestRecords {

    private LagTestRecords() {
    }

    /** {@code count} records into {@code partition}, stamped {@code base}, {@code base} + 1 s, and so on. */
    static void produce(KafkaCluster kafka, TopicPartition partition, long base, int count) {
        Map<String, Object> props = new HashMap<>(kafka.clientProperties(Listener.PLAINTEXT));
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        byte[] value = new byte[1_000];
        Arrays.fill(value, (byte) 'v');
        try (var producer = new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int i = 0; i < count; i++) {
                producer.send(new ProducerRecord<>(partition.topic(), partition.partition(), base + i * 1_000L, null,
                        value));
            }
            producer.flush();
        }
    }
}
