package io.sluice.core.internal.consumer;

import java.util.Collection;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;

/**
 * What the engine commits, and when: a partition's progress as the ledger knows it when a handler runs
 * ({@link LedgerCommits}), or a sink's checkpoints ({@link SinkCommits}). Either way the commits go to the engine's
 * {@link io.sluice.core.commit.CommitPoint}.
 *
 * <p>Threading: the consumer thread only.
 */
interface CommitPolicy {

    /** A partition was assigned; {@code committed} is its last commit, or null. */
    void assigned(PartitionState partition, OffsetAndMetadata committed);

    /** Called on every loop: commits asynchronously when the interval has passed. */
    void maybeCommit(Collection<PartitionState> partitions);

    /**
     * The partitions are being revoked or the engine closes; they are closed and their records no longer run.
     * Commits what is done, synchronously.
     */
    void commitFinal(Collection<PartitionState> partitions);

    /** The partitions were lost: another member may own them; nothing may be committed or published. */
    void lost(Collection<PartitionState> partitions);

    /**
     * After how many records of the fetch being dispatched the partition's commit is queued at once, behind them
     * ({@link #queueCommit}), rather than on the interval; {@link Integer#MAX_VALUE} for never. Only {@link LaneCommits}
     * asks for one: an assignment's first commit follows its first record.
     */
    default int commitAfter(PartitionState partition) {
        return Integer.MAX_VALUE;
    }

    /** The dispatcher handed out {@link #commitAfter} records of a fetch: queue the commit behind them. */
    default void queueCommit(PartitionState partition) {
    }

    /** Bytes held for the partition outside the engine's queues (a sink's buffers). */
    long heldBytes(PartitionState partition);

    /**
     * Asks whoever holds {@link #heldBytes} for the partition to free them ({@link io.sluice.core.sink.Sink#relieve}),
     * in the partition's order; nothing to do without a sink.
     */
    default void relieve(PartitionState partition) {
    }

    /**
     * From now on each wait for a sink call in a lane asks {@code stopWaiting} a few times a second, and ends when it
     * says so: the drain's watch on a sink that cannot finish ({@link DrainWatch}), which fails the engine first.
     * Nothing to do without a sink.
     */
    default void watchWaits(BooleanSupplier stopWaiting) {
    }

    CommitCounts counts();
}
