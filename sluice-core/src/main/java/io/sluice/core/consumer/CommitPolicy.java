package io.sluice.core.consumer;

import java.util.Collection;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;

/**
 * How processed records become Kafka commits: from the ledger's watermark and completion map when a handler runs
 * ({@link LedgerCommits}), or from a sink's checkpoints ({@link SinkCommits}).
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

    /** Bytes held for the partition outside the engine's queues (a sink's buffers). */
    long heldBytes(PartitionState partition);

    CommitCounts counts();
}
