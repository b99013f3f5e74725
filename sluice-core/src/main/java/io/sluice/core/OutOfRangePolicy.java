package io.sluice.core;

/**
 * What to do when the committed offset is no longer in the log, because retention or compaction deleted records
 * before they were processed, or when the topic was deleted and created again since the commit.
 */
public enum OutOfRangePolicy {
    /** Stop with an error that names the partition and the range of offsets lost. The default: loss is never silent. */
    FAIL,
    /**
     * Stop reading that partition, saying the lost range once in the log, and go on with the others; its progress
     * stays where the loss begins. The engine ends failed, naming every loss, when it stops: a bounded run once the
     * other partitions are done, an unbounded one when it is closed. What a mirror does: one partition's loss must
     * neither be skipped nor hold every other partition still.
     */
    STOP_PARTITION,
    /** Log the lost range loudly and continue from the earliest offset still in the log. */
    EARLIEST,
    /** Log the lost range loudly and continue from the end of the log. */
    LATEST
}
