package io.sluice.merge;

/**
 * What a merge promises about its output (docs/merge.md, "Exactly once" and "At least once"); named as the mirror's
 * {@code delivery}.
 */
public enum MergeDelivery {
    /**
     * Every committed input record once, in merge order, for read_committed readers: one transaction per output
     * partition holds the merged records and the positions they came from; a new owner's claim fences earlier ones.
     */
    EXACTLY_ONCE,
    /**
     * Every committed input record at least once: each output partition's records are written by an idempotent
     * producer, and the positions are committed (as the owners group's offsets, by the member that owns the partition)
     * only once every record below them is acknowledged. A restart re-emits the same sequence from the committed
     * positions, so the output is in merge order apart from the repeated window since the last commit.
     */
    AT_LEAST_ONCE
}
