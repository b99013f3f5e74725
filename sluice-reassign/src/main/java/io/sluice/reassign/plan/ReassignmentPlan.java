package io.sluice.reassign.plan;

import java.util.List;

/**
 * What {@code sluice reassign plan} writes for a person to review and {@code execute} takes: the goal, the moves,
 * and each log dir's disk now, at peak and after.
 *
 * <p>Immutable.
 */
public record ReassignmentPlan(String goal, List<PartitionMove> moves, List<DiskUse> disks) {

    public ReassignmentPlan {
        moves = List.copyOf(moves);
        disks = List.copyOf(disks);
    }

    public int replicaMoves() {
        return moves.stream().mapToInt(PartitionMove::replicaMoves).sum();
    }

    public long bytesToCopy() {
        return moves.stream().mapToLong(m -> m.bytes() * m.replicaMoves()).sum();
    }
}
