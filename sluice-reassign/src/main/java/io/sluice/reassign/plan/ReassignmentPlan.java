package io.sluice.reassign.plan;

import java.util.List;

/**
 * What {@code sluice reassign plan} writes for a person to review and {@code execute} takes: the cluster it was made
 * for, the goal, the moves, and each log dir's disk now, at peak and after.
 *
 * <p>Immutable.
 *
 * @param cluster the ID of the cluster the plan was made on, so that it is never executed on another one (a staging
 *     cluster's plan on production: same topics, same brokers, other disks); null in plans written before it was kept
 */
public record ReassignmentPlan(String cluster, String goal, List<PartitionMove> moves, List<DiskUse> disks) {

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
