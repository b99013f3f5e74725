package io.sluice.core;

/** Which partitions a start timestamp ({@link EngineConfig.Builder#startFrom}) moves. */
public enum TimestampStart {
    /** Only partitions the group has never committed; the others resume from their commit. */
    UNCOMMITTED,
    /**
     * Every partition starts at the first record at or after the timestamp unless its committed offset is already
     * past it. A commit before the timestamp is skipped over: the records in between are never processed, and the
     * log says how many. A commit after it stands, so a restart, a rebalance or another instance never replays what
     * was done. To process records again from a point in time, reset the group's offsets or use a new group.
     */
    ALWAYS
}
