package io.sluice.core.internal.lane;

/**
 * What a lane needs from the partition it belongs to. Implemented by the engine's partition state.
 *
 * <p>Threading: called from worker threads (and from threads completing asynchronous attempts); implementations
 * must be safe for that.
 */
public interface PartitionWork {

    /** False once the partition is revoked or the engine drains: queued records are then left unprocessed. */
    boolean isOpen();

    /**
     * An attempt at one of this partition's records is about to begin; may wait for the engine's in-flight limit.
     * From here until {@link #attemptSettled} the record counts as running, and a revocation's drain waits for it.
     * The partition is checked after the record is counted, never before: a drain closes the partition and then
     * reads the count, so either the drain sees this record running or this call sees the partition closed.
     *
     * @return false when the attempt must not begin: the partition closed (revoked, or the engine drains), or the
     *         thread was interrupted while waiting (the engine is stopping); the record then counts as running no more
     */
    boolean attemptStarted();

    /** That attempt ended: it finished, failed, or timed out. Frees its place under the in-flight limit. */
    void attemptEnded();

    /**
     * The lane has dealt with the attempt's outcome: reported the record {@link #completed} (always before this
     * call), gave it up, or will retry it after a backoff. Only now does the record stop counting as running, so a
     * drain that sees nothing running has every completion of the records handled so far.
     */
    void attemptSettled();

    /**
     * Reports a record done, with the bytes it held and when its first attempt began ({@link System#nanoTime}).
     * Records of different lanes complete in any order.
     */
    void completed(long offset, long bytes, long startNanos);

    /**
     * The record at {@code offset} failed every attempt and its failure outcome settled it (dead-lettered or skipped);
     * called before it is reported {@link #completed}. A sink never wrote it, so its checkpoint cannot cover it.
     */
    default void givenUp(long offset) {
    }
}
