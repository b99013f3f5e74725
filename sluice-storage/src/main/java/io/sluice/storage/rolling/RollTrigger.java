package io.sluice.storage.rolling;

/**
 * Why a partition's open files are sealed. Each roll has one; the sink counts the ones forced early
 * ({@link #OPEN_FILE_BOUND}, and for memory {@link #MEMORY_PRESSURE} and {@link #BUDGET}) apart, since a growing count
 * of those says a limit is set too low ({@code docs/rolling.md}).
 */
public enum RollTrigger {
    /** An open file reached {@code maxBytes} (compressed, as written). */
    SIZE,
    /** An open file reached {@code maxRecords}. */
    RECORDS,
    /** The oldest open file has been open {@code maxAge}. */
    AGE,
    /**
     * The files the open-file bound evicted (sealed alone and parked, each when the partition had {@code maxOpenFiles}
     * open and a record needed another directory) reached their bound.
     */
    OPEN_FILE_BOUND,
    /** The sink's open files hold more heap than its limit, and this partition holds the most. */
    MEMORY_PRESSURE,
    /**
     * The engine paused the partition at its share of the memory budget with every record written, and the open
     * files' heap alone keeps it paused ({@code Sink.relieve}).
     */
    BUDGET,
    /** The partition's last checkpoint: it leaves this member, or the engine closes. */
    LAST_CHECKPOINT
}
