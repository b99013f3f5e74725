package io.sluice.reassign.execute;

import io.sluice.reassign.plan.PartitionMove;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.common.TopicPartition;

/**
 * Whether a plan still fits the cluster: each partition must still have the replicas the plan moves it from (or
 * already the ones it moves it to). A plan made before someone else moved partitions would undo their moves.
 *
 * <p>Pure. Threading: stateless.
 */
public final class PlanFreshness {

    private PlanFreshness() {
    }

    /** One line per partition that no longer fits; empty when the plan applies. */
    public static List<String> stale(List<PartitionMove> moves, Map<TopicPartition, List<Integer>> now) {
        return stale(moves, now, Map.of());
    }

    /**
     * As {@link #stale(List, Map)}, knowing the targets of the moves under way: a partition moving to the replicas the
     * plan gives it fits (this plan's own move, started by a run whose journal is gone), though its replicas now are
     * both sets; it was called stale, as if someone else had moved it.
     */
    public static List<String> stale(List<PartitionMove> moves, Map<TopicPartition, List<Integer>> now,
            Map<TopicPartition, List<Integer>> movingTo) {
        List<String> stale = new ArrayList<>();
        for (PartitionMove move : moves) {
            List<Integer> replicas = now.get(move.topicPartition());
            if (replicas == null) {
                stale.add(move.topic() + "-" + move.partition() + " no longer exists");
            } else if (move.to().equals(movingTo.get(move.topicPartition()))) {
                continue;
            } else if (!replicas.equals(move.from()) && !replicas.equals(move.to())) {
                stale.add(move.topic() + "-" + move.partition() + " has replicas " + replicas + ", the plan expected "
                        + move.from());
            }
        }
        return stale;
    }

    /**
     * Says so when the plan was made on another cluster than {@code clusterId}: its moves may even fit (the same
     * topics on the same broker IDs, as a staging cluster often has), but its disk figures and its review were of the
     * other one. A plan that names no cluster (written by an older version) is taken as it is.
     */
    public static Optional<String> otherCluster(String planCluster, String clusterId) {
        if (planCluster == null || planCluster.equals(clusterId)) {
            return Optional.empty();
        }
        return Optional.of("the plan was made on the cluster " + planCluster + ", and this is the cluster "
                + clusterId);
    }

    /**
     * One line per broker the plan moves replicas to that the cluster does not have (a plan of another cluster, or an
     * edited one): Kafka refuses such a move only when it is asked, after the moves before it were started.
     */
    public static List<String> absentBrokers(List<PartitionMove> moves, Set<Integer> brokers) {
        Set<Integer> absent = new TreeSet<>();
        moves.forEach(m -> m.to().stream().filter(b -> !brokers.contains(b)).forEach(absent::add));
        return absent.stream().map(b -> "broker " + b + " is not in the cluster (its brokers: " + new TreeSet<>(brokers)
                + ")").toList();
    }
}
