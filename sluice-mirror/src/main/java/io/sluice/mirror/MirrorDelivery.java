package io.sluice.mirror;

/** What a mirror promises about copies. */
public enum MirrorDelivery {
    /**
     * Every committed source record once in the target, for read_committed readers: the copies and the source offsets
     * they came from commit in one transaction in the target cluster.
     */
    EXACTLY_ONCE,
    /**
     * Every committed source record at least once: copies are acknowledged before the source group commits their
     * offsets; a restart repeats the copies made since the last commit.
     */
    AT_LEAST_ONCE
}
