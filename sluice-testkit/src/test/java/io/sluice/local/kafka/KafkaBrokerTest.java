package io.sluice.local.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.LongDeserializer;
import org.apache.kafka.common.serialization.LongSerializer;
import org.junit.jupiter.api.Test;

class KafkaBrokerTest {

    @Test
    void hundredThousandRecordsGoInAndComeOutInOrderPerPartition() {
        KafkaCluster kafka = SharedKafka.cluster();
        String topic = Names.unique("roundtrip");
        kafka.createTopic(topic, 4);
        int count = 100_000;

        Map<String, Object> producerProps = new HashMap<>(kafka.clientProperties(Listener.PLAINTEXT));
        producerProps.put(ProducerConfig.ACKS_CONFIG, "all");
        producerProps.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        try (var producer = new KafkaProducer<>(producerProps, new LongSerializer(), new ByteArraySerializer())) {
            for (long i = 0; i < count; i++) {
                producer.send(new ProducerRecord<>(topic, (int) (i % 4), i, new byte[100]));
            }
            producer.flush();
        }

        Map<String, Object> consumerProps = new HashMap<>(kafka.clientProperties(Listener.PLAINTEXT));
        consumerProps.put(ConsumerConfig.GROUP_ID_CONFIG, Names.unique("group"));
        consumerProps.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        long[] lastPerPartition = {-1, -1, -1, -1};
        int seen = 0;
        try (var consumer = new KafkaConsumer<>(consumerProps, new LongDeserializer(), new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (seen < count && System.nanoTime() < deadline) {
                for (ConsumerRecord<Long, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    assertEquals(r.partition(), (int) (r.key() % 4), "record in the partition it was sent to");
                    long last = lastPerPartition[r.partition()];
                    assertEquals(last < 0 ? r.partition() : last + 4, r.key(),
                            "records of a partition arrive in the order they were sent");
                    lastPerPartition[r.partition()] = r.key();
                    seen++;
                }
            }
        }
        assertEquals(count, seen);
    }
}
