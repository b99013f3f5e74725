package io.sluice.audit;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetOutOfRangeException;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Reads ranges of partitions as {@code read_committed} consumers see them, without a consumer group: aborted
 * transactions and transaction markers are skipped by Kafka itself. Keys and values are not deserialized; offsets and
 * headers are all the audit needs.
 *
 * <p>Threading: one call at a time per instance; the visitor is called on the calling thread.
 */
final class CommittedReader {

    interface Visitor {
        void record(ConsumerRecord<Void, Void> record);

        /** Retention removed records while they were being read: the partition now starts at {@code logStart}. */
        void logStartMoved(TopicPartition partition, long logStart);
    }

    /** A range to read: from {@code from} up to, not including, {@code until}. */
    record Range(long from, long until) {
    }

    private final Map<String, Object> properties;
    private final Duration timeout;

    CommittedReader(Map<String, Object> kafkaProperties, Duration timeout) {
        this.properties = new HashMap<>(kafkaProperties);
        properties.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        // a position below the log start is reported, not silently moved
        properties.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none");
        properties.remove(ConsumerConfig.GROUP_ID_CONFIG);
        properties.remove(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG);
        properties.putIfAbsent(ConsumerConfig.CLIENT_ID_CONFIG, "sluice-audit");
        properties.putIfAbsent(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 10_000);
        properties.putIfAbsent(ConsumerConfig.FETCH_MAX_BYTES_CONFIG, 64 * 1024 * 1024);
        properties.putIfAbsent(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 8 * 1024 * 1024);
        // a partition read to its end is paused, so a long wait on an empty fetch only delays the others
        properties.putIfAbsent(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 100);
        properties.putIfAbsent(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
        this.timeout = timeout;
    }

    void read(Map<TopicPartition, Range> ranges, Visitor visitor) throws AuditException {
        Map<TopicPartition, Range> pending = new HashMap<>();
        ranges.forEach((tp, r) -> {
            if (r.from() < r.until()) {
                pending.put(tp, r);
            }
        });
        if (pending.isEmpty()) {
            return;
        }
        KafkaConsumer<Void, Void> consumer = new KafkaConsumer<>(properties, new Ignored(), new Ignored());
        try {
            consumer.assign(pending.keySet());
            pending.forEach((tp, r) -> consumer.seek(tp, r.from()));
            Map<TopicPartition, Long> positions = new HashMap<>();
            long lastProgress = System.nanoTime();
            while (!pending.isEmpty()) {
                try {
                    for (ConsumerRecord<Void, Void> record : consumer.poll(Duration.ofMillis(200))) {
                        Range range = pending.get(new TopicPartition(record.topic(), record.partition()));
                        if (range != null && record.offset() < range.until()) {
                            visitor.record(record);
                        }
                    }
                } catch (OffsetOutOfRangeException e) {
                    Map<TopicPartition, Long> starts = consumer.beginningOffsets(e.offsetOutOfRangePartitions().keySet(),
                            timeout);
                    starts.forEach((tp, start) -> {
                        visitor.logStartMoved(tp, start);
                        consumer.seek(tp, start);
                    });
                    continue;
                }
                Set<TopicPartition> done = new HashSet<>();
                for (Map.Entry<TopicPartition, Range> e : pending.entrySet()) {
                    long position = consumer.position(e.getKey(), timeout);
                    if (!Long.valueOf(position).equals(positions.put(e.getKey(), position))) {
                        lastProgress = System.nanoTime();
                    }
                    if (position >= e.getValue().until()) {
                        done.add(e.getKey());
                    }
                }
                if (!done.isEmpty()) {
                    consumer.pause(done);
                    pending.keySet().removeAll(done);
                }
                if (!pending.isEmpty() && System.nanoTime() - lastProgress > timeout.toNanos()) {
                    throw new AuditException("reading " + describe(pending.keySet(), positions) + " made no progress for "
                            + timeout + ": is the broker reachable, and does this client have READ permission?");
                }
            }
        } catch (KafkaException e) {
            throw new AuditException("cannot read " + ranges.keySet() + " read_committed: " + e, e);
        } finally {
            // no group to leave and nothing to commit: do not wait for the fetch still in flight
            consumer.close(CloseOptions.timeout(Duration.ZERO));
        }
    }

    private static String describe(Set<TopicPartition> partitions, Map<TopicPartition, Long> positions) {
        StringBuilder b = new StringBuilder();
        for (TopicPartition tp : partitions) {
            b.append(b.length() == 0 ? "" : ", ").append(tp).append(" at offset ").append(positions.get(tp));
        }
        return b.toString();
    }

    /** Keys and values are never looked at: skip copying them out of the fetched batches. */
    private static final class Ignored implements Deserializer<Void> {
        @Override
        public Void deserialize(String topic, byte[] data) {
            return null;
        }

        @Override
        public Void deserialize(String topic, Headers headers, ByteBuffer data) {
            return null;
        }
    }
}
