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
     *
     * @return false when interrupted while waiting (the engine is stopping): the attempt does not begin
     */
    boolean attemptStarted();

    /** That attempt ended: it finished, failed, or timed out. */
    void attemptEnded();

    /**
     * Reports a record done, with the bytes it held and when its first attempt began ({@link System#nanoTime}).
     * Records of different lanes complete in any order.
     */
    void completed(long offset, long bytes, long startNanos);
}
