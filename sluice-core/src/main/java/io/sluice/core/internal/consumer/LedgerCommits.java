package io.sluice.core.internal.consumer;

import io.micrometer.core.instrument.Timer;
import io.sluice.core.commit.CommitPoint;
import io.sluice.core.crash.CrashPoints;
import io.sluice.core.wire.CommitMetadata;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * Commits each partition's watermark and completion map, for handlers: asynchronously on an interval, synchronously
 * on revoke and close.
 *
 * <p>A failed asynchronous commit is never resubmitted as it was: the next interval commits the partition's
 * current state, which is at least as new. The commit point takes commits in the order they were sent, so an older
 * commit can never land after a newer one.
 *
 * <p>Threading: confined to the consumer thread (the commit point delivers outcomes there too).
 */
final class LedgerCommits implements CommitPolicy {

    private final CommitPoint commitPoint;
    private final long intervalNanos;
    private final CommitSettings settings;
    private final Timer latency;
    private final CommitCounts counts = new CommitCounts();
    private final CommitFailures failures = new CommitFailures();
    private long nextCommit;

    LedgerCommits(CommitPoint commitPoint, CommitSettings settings, Timer latency) {
        this.commitPoint = commitPoint;
        this.settings = settings;
        this.latency = latency;
        this.intervalNanos = settings.interval().toNanos();
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
        commitPoint.commit(offsets, (committed, error) -> {
            latency.record(System.nanoTime() - sent, TimeUnit.NANOSECONDS);
            if (error != null) {
                counts.failed();
                failures.failed(committed.keySet(), error, System.nanoTime());
                return;
            }
            counts.succeeded();
            failures.succeeded(System.nanoTime());
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
        commitPoint.commitNow(offsets, settings.timeout());
        counts.succeeded();
        for (PartitionState p : partitions) {
            OffsetAndMetadata oam = offsets.get(p.partition);
            if (oam != null) {
                p.lastCommitted = oam;
            }
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
                    CommitMetadata.encode(p.topicId, p.ledger.completionMap().encode(), null));
            if (!current.equals(p.lastCommitted)) {
                offsets.put(p.partition, current);
            }
        }
        return offsets;
    }
}
