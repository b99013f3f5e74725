package io.sluice.core.internal.consumer;

/** Why a partition is not being fetched; it is fetched again only when no reason is left. */
enum PauseReason {
    /** An operator asked through {@link io.sluice.core.Engine#pause}. */
    OPERATOR,
    /** The partition holds its share of the memory budget. */
    BUDGET,
    /** The next record is a full window ahead of the oldest unfinished one. */
    WINDOW,
    /** The run is ahead of the read-rate limit. */
    RATE,
    /** A bounded run reached the partition's end offset as seen at the start. */
    END,
    /** Records the partition was to read are gone ({@link io.sluice.core.OutOfRangePolicy#STOP_PARTITION}). */
    GAP
}
