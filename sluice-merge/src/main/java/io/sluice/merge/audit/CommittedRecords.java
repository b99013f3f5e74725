package io.sluice.merge.audit;

import io.sluice.core.ClusterConnection;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads one partition as a read_committed reader sees it, from an offset to the partition's last stable offset (or a
 * given end), record by record in offset order, without holding the partition in memory.
 *
 * <p>Threading: one thread; close it after use.
 */
final class CommittedRecords implements AutoCloseable {

    /** Takes each record in turn. */
    interface Visitor {
        void visit(ConsumerRecord<byte[], byte[]> record) throws Exception;
    }

    private static final Duration POLL = Duration.ofMillis(200);
    private static final Duration STALL = Duration.ofSeconds(30);

    private final KafkaConsumer<byte[], byte[]> consumer;

    CommittedRecords(Map<String, Object> clientProperties) {
        Map<String, Object> props = new HashMap<>(ClusterConnection.of(clientProperties));
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, "sluice-merge-verify");
        // a read ends at a known offset, often a partition's end, where the broker holds the next fetch up to this
        // long; the next partition's read waited for it (half a second a partition at the default)
        props.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 50);
        this.consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    /** Where the partition begins now (retention may have deleted what the merge once read). */
    long start(TopicPartition tp) {
        return consumer.beginningOffsets(List.of(tp), STALL).get(tp);
    }

    /** The partition's last stable offset now. */
    long end(TopicPartition tp) {
        return consumer.endOffsets(List.of(tp), STALL).get(tp);
    }

    /** Visits every committed record of {@code tp} at or above {@code from} and below {@code to}. */
    void read(TopicPartition tp, long from, long to, Visitor visitor) throws Exception {
        if (from >= to) {
            return;
        }
        consumer.assign(List.of(tp));
        consumer.seek(tp, from);
        long lastProgress = System.nanoTime();
        while (consumer.position(tp) < to) {
            var records = consumer.poll(POLL).records(tp);
            for (ConsumerRecord<byte[], byte[]> r : records) {
                if (r.offset() >= to) {
                    return;
                }
                visitor.visit(r);
            }
            if (!records.isEmpty()) {
                lastProgress = System.nanoTime();
            } else if (System.nanoTime() - lastProgress > STALL.toNanos()) {
                throw new IllegalStateException("reading " + tp + " stalled at offset " + consumer.position(tp)
                        + " before " + to + " for " + STALL.toSeconds() + " s: is the cluster reachable?");
            }
        }
    }

    @Override
    public void close() {
        consumer.close(CloseOptions.timeout(Duration.ZERO)); // no group, nothing to commit: nothing to wait for
    }
}
