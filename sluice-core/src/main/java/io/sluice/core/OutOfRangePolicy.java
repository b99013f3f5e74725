package io.sluice.core;

/**
 * What to do when the committed offset is no longer in the log, because retention or compaction deleted records
 * before they were processed.
 */
public enum OutOfRangePolicy {
    /** Stop with an error that names the partition and the range of offsets lost. The default: loss is never silent. */
    FAIL,
    /** Log the lost range loudly and continue from the earliest offset still in the log. */
    EARLIEST,
    /** Log the lost range loudly and continue from the end of the log. */
    LATEST
}
