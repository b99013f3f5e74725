package io.sluice.core.internal.consumer;

import io.sluice.core.internal.ledger.PartitionLedger;
import io.sluice.core.sink.SinkCheckpoint;
import org.apache.kafka.common.TopicPartition;

/**
 * How far a sink's checkpoint lets one partition's commits go. A sink checkpoints the records it was handed, so its
 * offset is at most the last one's + 1; but a read_committed consumer steps over offsets it never returns (transaction
 * markers, aborted records, compaction gaps), and when those end what was read, the consumer's position is beyond that
 * record. Committed from the checkpoint alone, progress would never reach the log's end: lag never 0, a mirror's
 * progress a marker behind its source, a bounded run's commit short of the end it waits for. So a checkpoint that
 * covers every record handed out before it was asked for commits up to the position as of that moment ({@link Reach}:
 * taken on the consumer thread when the checkpoint goes into the lane, in order with the records, so the sink cannot
 * have seen a record the reach does not count).
 *
 * <p>The commits of a partition never go back: the sink may answer a later checkpoint with the same offset while new
 * records wait in its buffers, and the offsets it stepped over last time are no less empty.
 *
 * <p>Threading: owned by whoever commits the partition's checkpoints, one thread at a time: the consumer thread
 * ({@link SinkCommits}) or the partition's lane ({@link LaneCommits}).
 */
final class SinkProgress {

    /**
     * Where a partition stood when a checkpoint was asked for: the records handed out end at {@code handedOut}, and
     * the consumer's position was {@code position}, with nothing the application sees between them. Immutable.
     */
    record Reach(long handedOut, long position) {

        /** Consumer thread, when the checkpoint's task goes into the lane. */
        static Reach of(PartitionLedger ledger) {
            return new Reach(ledger.handedOut(), ledger.end());
        }
    }

    private final TopicPartition partition;
    /** The sink's own offset in the last commit sent (or the commit it was opened from): it never checkpoints less. */
    private long checkpointed;
    /** The offset of the last commit sent: at least {@link #checkpointed}. */
    private long committed;

    /** @param committed the partition's last commit when it was assigned (0 when none) */
    SinkProgress(TopicPartition partition, long committed) {
        this.partition = partition;
        this.checkpointed = committed;
        this.committed = committed;
    }

    /**
     * The offset to commit for checkpoint {@code c}, asked for at {@code reach}.
     *
     * @throws IllegalStateException when the sink broke its contract: a checkpoint beyond the records it was handed, or
     *                               below its last commit
     */
    long offsetOf(SinkCheckpoint c, Reach reach) {
        return offsetOf(c, c.offset(), reach);
    }

    /**
     * As {@link #offsetOf(SinkCheckpoint, Reach)}, for a checkpoint that {@code covers} more than its own offset: the
     * records after it were given up (dead-lettered or skipped), and are done as well.
     */
    long offsetOf(SinkCheckpoint c, long covers, Reach reach) {
        if (c.offset() > reach.handedOut()) {
            throw new IllegalStateException("the sink checkpointed " + partition + " at offset " + c.offset()
                    + ", beyond the records handed out (" + reach.handedOut() + ")");
        }
        if (c.offset() < checkpointed) {
            throw new IllegalStateException("the sink checkpointed " + partition + " at offset " + c.offset()
                    + ", below its last commit " + checkpointed);
        }
        long through = covers >= reach.handedOut() ? reach.position() : Math.max(c.offset(), covers);
        return Math.max(through, committed);
    }

    /** A commit of {@code c} at {@code offset} was sent (or, committing in the lane, taken). */
    void sent(SinkCheckpoint c, long offset) {
        checkpointed = c.offset();
        committed = offset;
    }

    long committed() {
        return committed;
    }
}
