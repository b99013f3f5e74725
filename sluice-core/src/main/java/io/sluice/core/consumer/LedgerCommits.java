package io.sluice.core.consumer;

import io.sluice.core.CrashPoints;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commits each partition's watermark and completion map, for handlers: asynchronously on an interval, synchronously
 * on revoke and close.
 *
 * <p>A failed asynchronous commit is never resubmitted as it was: the next interval commits the partition's
 * current state, which is at least as new. Commits reach the group coordinator in the order they were sent, so an
 * older commit can never land after a newer one.
 *
 * <p>Threading: confined to the consumer thread (KafkaConsumer runs commit callbacks there too).
 */
final class LedgerCommits implements CommitPolicy {

    private static final Logger LOG = LoggerFactory.getLogger(LedgerCommits.class);

    private final Consumer<?, ?> consumer;
    private final long intervalNanos;
    private final Duration syncTimeout;
    private long nextCommit;
    private final CommitCounts counts = new CommitCounts();

    private final io.micrometer.core.instrument.Timer latency;

    LedgerCommits(Consumer<?, ?> consumer, Duration interval, Duration syncTimeout,
            io.micrometer.core.instrument.Timer latency) {
        this.consumer = consumer;
        this.latency = latency;
        this.intervalNanos = interval.toNanos();
        this.syncTimeout = syncTimeout;
        this.nextCommit = System.nanoTime() + intervalNanos;
    }

    @Override
    public void assigned(PartitionState partition, OffsetAndMetadata committed) {
        partition.lastCommitted = committed;
    }

    @Override
    public void maybeCommit(Collection<PartitionState> partitions) {
        long now = System.nanoTime();
        if (now - nextCommit < 0) {
            return;
        }
        nextCommit = now + intervalNanos;
        Map<TopicPartition, OffsetAndMetadata> offsets = changed(partitions);
        if (offsets.isEmpty()) {
            return;
        }
        Map<TopicPartition, PartitionState> byPartition = new HashMap<>();
        partitions.forEach(p -> byPartition.put(p.partition, p));
        CrashPoints.reach(CrashPoints.BEFORE_COMMIT);
        long sent = System.nanoTime();
        consumer.commitAsync(offsets, (committed, error) -> {
            latency.record(System.nanoTime() - sent, java.util.concurrent.TimeUnit.NANOSECONDS);
            if (error != null) {
                counts.failures.increment();
                LOG.warn("commit of {} failed; the next interval commits the newer state: {}", committed.keySet(),
                        error.toString());
                return;
            }
            counts.commits.increment();
            committed.forEach((tp, oam) -> {
                PartitionState p = byPartition.get(tp);
                if (p != null) {
                    p.lastCommitted = oam;
                }
            });
            CrashPoints.reach(CrashPoints.AFTER_COMMIT_ACK);
        });
        CrashPoints.reach(CrashPoints.AFTER_COMMIT_REQUEST);
    }

    @Override
    public void commitFinal(Collection<PartitionState> partitions) {
        Map<TopicPartition, OffsetAndMetadata> offsets = changed(partitions);
        if (offsets.isEmpty()) {
            return;
        }
        commitSync(consumer, offsets, syncTimeout);
        counts.commits.increment();
        for (PartitionState p : partitions) {
            OffsetAndMetadata oam = offsets.get(p.partition);
            if (oam != null) {
                p.lastCommitted = oam;
            }
        }
    }

    /**
     * A synchronous commit that a pending wakeup cannot cancel: {@code wakeup()} is how the engine ends its poll loop
     * (close, failure), and the final commit right after must still happen.
     */
    static void commitSync(Consumer<?, ?> consumer, Map<TopicPartition, OffsetAndMetadata> offsets, Duration timeout) {
        try {
            consumer.commitSync(offsets, timeout);
        } catch (org.apache.kafka.common.errors.WakeupException e) {
            consumer.commitSync(offsets, timeout);
        }
    }

    @Override
    public void lost(Collection<PartitionState> partitions) {
        // nothing held outside the ledger; nothing to undo
    }

    @Override
    public long heldBytes(PartitionState partition) {
        return 0;
    }

    @Override
    public CommitCounts counts() {
        return counts;
    }

    private static Map<TopicPartition, OffsetAndMetadata> changed(Collection<PartitionState> partitions) {
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        for (PartitionState p : partitions) {
            OffsetAndMetadata current = new OffsetAndMetadata(p.ledger.watermark(),
                    CommitMetadata.encode(p.topicId, p.ledger.completionMap(), null));
            if (!current.equals(p.lastCommitted)) {
                offsets.put(p.partition, current);
            }
        }
        return offsets;
    }
}
