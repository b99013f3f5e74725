package io.sluice.bench.systems;

import io.sluice.local.kafka.ServingLeaders;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The mirror benchmark's baseline, as the notes measured it: one consumer and one idempotent producer (linger 10 ms,
 * batches of 256 KiB) on one thread, each record sent to the same partition of the target topic with its key, value,
 * headers and timestamp, the source offsets committed every second once the producer has flushed: at least once.
 * It makes the target topic first, as a copier has to.
 */
final class PlainCopier {

    private static final Duration COMMIT_INTERVAL = Duration.ofSeconds(1);

    private PlainCopier() {
    }

    /** Copies {@code topic} to its end offsets at start; returns the records sent. */
    static long run(String source, String topic, String target, String targetTopic, int partitions)
            throws ExecutionException, InterruptedException, TimeoutException {
        try (Admin admin = Admin.create(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, target))) {
            admin.createTopics(List.of(new NewTopic(targetTopic, partitions, (short) 1))).all()
                    .get(30, TimeUnit.SECONDS);
            ServingLeaders.await(admin, targetTopic, Duration.ofSeconds(60));
        }
        Map<String, Object> consumerProps = new HashMap<>();
        consumerProps.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, source);
        consumerProps.put(ConsumerConfig.GROUP_ID_CONFIG, SystemMain.group("plain-copier"));
        consumerProps.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        consumerProps.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        Map<String, Object> producerProps = new HashMap<>();
        producerProps.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, target);
        producerProps.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        producerProps.put(ProducerConfig.ACKS_CONFIG, "all");
        producerProps.put(ProducerConfig.LINGER_MS_CONFIG, 10);
        producerProps.put(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
        AtomicReference<Exception> failed = new AtomicReference<>();
        long sent = 0;
        try (var consumer = new KafkaConsumer<>(consumerProps, new ByteArrayDeserializer(), new ByteArrayDeserializer());
                var producer = new KafkaProducer<>(producerProps, new ByteArraySerializer(), new ByteArraySerializer())) {
            List<TopicPartition> tps = IntStream.range(0, partitions).mapToObj(p -> new TopicPartition(topic, p))
                    .toList();
            consumer.assign(tps);
            Map<TopicPartition, Long> ends = consumer.endOffsets(tps);
            long nextCommit = System.nanoTime() + COMMIT_INTERVAL.toNanos();
            while (tps.stream().anyMatch(tp -> consumer.position(tp) < ends.get(tp))) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(100))) {
                    producer.send(new ProducerRecord<>(targetTopic, r.partition(), r.timestamp(), r.key(), r.value(),
                            r.headers()), (metadata, e) -> {
                                if (e != null) {
                                    failed.compareAndSet(null, e);
                                }
                            });
                    sent++;
                }
                if (System.nanoTime() >= nextCommit) {
                    commit(consumer, producer, tps, failed);
                    nextCommit = System.nanoTime() + COMMIT_INTERVAL.toNanos();
                }
            }
            commit(consumer, producer, tps, failed);
        }
        return sent;
    }

    /** Commits where the consumer is once everything sent before is acknowledged: at least once. */
    private static void commit(KafkaConsumer<byte[], byte[]> consumer, KafkaProducer<byte[], byte[]> producer,
            List<TopicPartition> tps, AtomicReference<Exception> failed) {
        producer.flush();
        if (failed.get() != null) {
            throw new IllegalStateException("a send failed", failed.get());
        }
        Map<TopicPartition, OffsetAndMetadata> positions = new HashMap<>();
        tps.forEach(tp -> positions.put(tp, new OffsetAndMetadata(consumer.position(tp))));
        consumer.commitSync(positions);
    }
}
