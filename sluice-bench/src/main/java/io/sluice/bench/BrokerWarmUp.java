package io.sluice.bench;

import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.testkit.Names;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Brings a fresh broker's code paths for writes to the state of a broker in use before a copier writes to it: a
 * broker's JVM compiles its produce, transaction and fetch paths while it serves them, and on a broker started for
 * the run that compiling took about two fifths of the target broker's CPU during a copy (perf, 2026-11-29) and ran on
 * the same two cores as the copier. A copier that uses more of the broker's paths (transactions) paid more of it, and
 * every copier was measured partly against the broker's start. Every kind of write the systems make is warmed, so
 * that none is favoured: idempotent batches, transactions with group offsets (committed and one aborted), and a
 * read_committed reader. Many small requests, since the broker's per-request code is what a short copy leaves cold.
 *
 * <p>Threading: one thread.
 */
final class BrokerWarmUp {

    private static final int RECORDS_PER_KIND = 100_000;
    private static final int RECORDS_PER_TRANSACTION = 2_000;
    private static final byte[] VALUE = new byte[1_000];

    private BrokerWarmUp() {
    }

    /** Writes and reads a throwaway topic of {@code partitions} partitions on {@code cluster}, then deletes it. */
    static void warm(KafkaCluster cluster, int partitions) throws Exception {
        String topic = Names.unique("broker-warm-up");
        cluster.createTopic(topic, partitions);
        Map<String, Object> props = new HashMap<>(cluster.clientProperties(Listener.PLAINTEXT));
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        props.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        props.put(ProducerConfig.BATCH_SIZE_CONFIG, 4 * 1024);
        long start = System.nanoTime();
        double requests = 0;
        try (var producer = new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int i = 0; i < RECORDS_PER_KIND; i++) {
                producer.send(new ProducerRecord<>(topic, i % partitions, null, VALUE));
            }
            producer.flush();
            requests += requests(producer);
        }
        props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, topic);
        ConsumerGroupMetadata group = new ConsumerGroupMetadata(topic);
        try (var producer = new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            producer.initTransactions();
            for (int sent = 0; sent < RECORDS_PER_KIND; sent += RECORDS_PER_TRANSACTION) {
                producer.beginTransaction();
                for (int i = 0; i < RECORDS_PER_TRANSACTION; i++) {
                    producer.send(new ProducerRecord<>(topic, (sent + i) % partitions, null, VALUE));
                }
                producer.sendOffsetsToTransaction(Map.of(new TopicPartition(topic, 0), new OffsetAndMetadata(sent)),
                        group);
                if (sent == 0) {
                    producer.abortTransaction(); // the reader's path past an aborted transaction, warmed too
                } else {
                    producer.commitTransaction();
                }
            }
            requests += requests(producer);
        }
        BenchMain.readFromStart(cluster, topic, partitions, 2L * RECORDS_PER_KIND - RECORDS_PER_TRANSACTION,
                "read_committed");
        cluster.admin().deleteTopics(List.of(topic)).all().get(60, TimeUnit.SECONDS);
        BenchMain.log("warmed the target broker up: %,.0f requests in %.1f s", requests,
                (System.nanoTime() - start) / 1e9);
    }

    private static double requests(KafkaProducer<?, ?> producer) {
        return producer.metrics().entrySet().stream()
                .filter(e -> e.getKey().group().equals("producer-metrics") && e.getKey().name().equals("request-total"))
                .mapToDouble(e -> ((Number) e.getValue().metricValue()).doubleValue()).sum();
    }
}
