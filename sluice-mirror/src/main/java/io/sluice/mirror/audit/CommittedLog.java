package io.sluice.mirror.audit;

import java.time.Duration;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * One cluster's partitions as read_committed readers see them, without a consumer group: their bounds, and walks
 * over their records ({@link PartitionWalk}). Aborted records and transaction markers are skipped by Kafka itself,
 * and the end offset is the last stable offset, so an open transaction's records are not read.
 *
 * <p>Threading: one thread; one walk at a time (each walk reassigns the consumer).
 */
final class CommittedLog implements AutoCloseable {

    /** How often {@link #decidedUpTo} looks again: markers land within milliseconds of a commit. */
    private static final Duration DECISION_POLL = Duration.ofMillis(50);
    private static final Comparator<TopicPartition> BY_NAME =
            Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition);

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Duration timeout;
    private final String side;

    /** A reader of the {@code side} ("source" or "target") cluster with the client settings {@code properties}. */
    CommittedLog(Map<String, Object> properties, String side, Duration timeout) {
        Map<String, Object> props = new HashMap<>(properties);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        // a position below the log start is reported, not silently moved to the log start
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none");
        props.remove(ConsumerConfig.GROUP_ID_CONFIG);
        props.remove(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG);
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, "sluice-mirror-audit." + side);
        props.putIfAbsent(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
        // one partition is read at a time: large fetches keep the round trips few; two sides hold 2 x 8 MB at most
        props.putIfAbsent(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 8 * 1024 * 1024);
        props.putIfAbsent(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 10_000);
        // a walk ends at a known offset, often a partition's end, where the broker holds the next fetch up to this
        // long; the next walk's partition waited for it (half a second a partition at the default)
        props.putIfAbsent(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 50);
        this.consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        this.timeout = timeout;
        this.side = side;
    }

    /** The first offset of each partition (retention and deleteRecords move it). */
    Map<TopicPartition, Long> logStarts(Collection<TopicPartition> partitions) {
        try {
            return consumer.beginningOffsets(partitions, timeout);
        } catch (KafkaException e) {
            throw new MirrorAuditException("cannot read the log start offsets of the " + side + ": " + e.getMessage(),
                    e);
        }
    }

    /** The last stable offset of each partition: read_committed readers read up to it, not including it. */
    Map<TopicPartition, Long> lastStable(Collection<TopicPartition> partitions) {
        try {
            return consumer.endOffsets(partitions, timeout);
        } catch (KafkaException e) {
            throw new MirrorAuditException("cannot read the end offsets of the " + side + ": " + e.getMessage(), e);
        }
    }

    /**
     * The last stable offset of each partition once it reached that partition's {@code logEnds} (its high watermark,
     * read before): every transaction with records below them decided. A commit returns to the producer before its
     * markers reach the partitions, so a last stable offset read alone can sit below records whose progress is
     * already committed, and the audit would call them missing. Waits up to the timeout.
     *
     * @throws MirrorAuditException naming each partition a transaction still holds open after the timeout
     */
    Map<TopicPartition, Long> decidedUpTo(Map<TopicPartition, Long> logEnds) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Map<TopicPartition, Long> stable = lastStable(logEnds.keySet());
            List<TopicPartition> open = logEnds.keySet().stream()
                    .filter(tp -> stable.get(tp) < logEnds.get(tp)).sorted(BY_NAME).toList();
            if (open.isEmpty()) {
                return stable;
            }
            if (System.nanoTime() > deadline) {
                throw new MirrorAuditException("a transaction has stayed open for " + timeout.toSeconds()
                        + " s in the " + side + " at " + open.stream()
                                .map(tp -> tp + " (from offset " + stable.get(tp) + ")")
                                .collect(Collectors.joining(", "))
                        + ", and read_committed readers see nothing past it: a mirror instance frozen or cut off from "
                        + "the " + side + " keeps it open until the cluster aborts it at its transaction timeout or "
                        + "another instance takes the partition over; audit again then");
            }
            try {
                Thread.sleep(DECISION_POLL.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new MirrorAuditException("interrupted while waiting for the " + side + "'s open transactions", e);
            }
        }
    }

    /** The records of {@code partition} from {@code from} up to, not including, {@code until}. */
    PartitionWalk walk(TopicPartition partition, long from, long until) {
        consumer.assign(List.of(partition));
        consumer.seek(partition, from);
        return new PartitionWalk(consumer, partition, until, timeout, side);
    }

    @Override
    public void close() {
        // no group to leave and nothing to commit: do not wait for a fetch still in flight
        consumer.close(CloseOptions.timeout(Duration.ZERO));
    }
}
