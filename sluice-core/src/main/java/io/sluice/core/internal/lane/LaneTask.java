package io.sluice.core.internal.lane;

/**
 * Work that must happen between two records of a lane, in order with them: a sink's checkpoint, publication or
 * recovery. Tasks run even after the partition is closed or the lane halted (records are then dropped), so that a
 * revocation can still checkpoint and publish. A task reports its own outcome (typically by completing a future)
 * and must not throw.
 */
@FunctionalInterface
public interface LaneTask {

    void run();
}
