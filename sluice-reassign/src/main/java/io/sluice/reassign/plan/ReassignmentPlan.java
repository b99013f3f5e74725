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
 * @param logDirCapacity the size each log dir was taken to have ({@code plan --log-dir-capacity}), which the run's
 *     disk check before each batch takes too; null for the volume sizes the brokers report
 */
public record ReassignmentPlan(String cluster, String goal, List<PartitionMove> moves, List<DiskUse> disks,
        Long logDirCapacity) {

    public ReassignmentPlan {
        moves = List.copyOf(moves);
        disks = List.copyOf(disks);
    }

    /** A plan over the volume sizes the brokers report. */
    public ReassignmentPlan(String cluster, String goal, List<PartitionMove> moves, List<DiskUse> disks) {
        this(cluster, goal, moves, disks, null);
    }

    public int replicaMoves() {
        return moves.stream().mapToInt(PartitionMove::replicaMoves).sum();
    }

    public long bytesToCopy() {
        return moves.stream().mapToLong(m -> m.bytes() * m.replicaMoves()).sum();
    }
}
