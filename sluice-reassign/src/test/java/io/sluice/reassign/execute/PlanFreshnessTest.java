package io.sluice.reassign.execute;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.reassign.plan.PartitionMove;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class PlanFreshnessTest {

    @Test
    void aPlanOfAnotherClusterIsSaidAndOneThatNamesNoClusterIsTakenAsItIs() {
        assertEquals(Optional.of("the plan was made on the cluster staging-1, and this is the cluster prod-1"),
                PlanFreshness.otherCluster("staging-1", "prod-1"));
        assertEquals(Optional.empty(), PlanFreshness.otherCluster("prod-1", "prod-1"));
        assertEquals(Optional.empty(), PlanFreshness.otherCluster(null, "prod-1"), "a plan of an older version");
    }

    @Test
    void aPartitionWhoseReplicasMovedSinceThePlanOrThatIsGoneMakesThePlanStale() {
        List<PartitionMove> moves = List.of(new PartitionMove("t", 0, List.of(1, 2), List.of(3, 2), 10),
                new PartitionMove("t", 1, List.of(1, 2), List.of(3, 2), 10),
                new PartitionMove("t", 2, List.of(1, 2), List.of(3, 2), 10),
                new PartitionMove("gone", 0, List.of(1), List.of(2), 10));
        Map<TopicPartition, List<Integer>> now = Map.of(new TopicPartition("t", 0), List.of(1, 2),
                new TopicPartition("t", 1), List.of(3, 2), new TopicPartition("t", 2), List.of(2, 1));
        assertEquals(List.of("t-2 has replicas [2, 1], the plan expected [1, 2]", "gone-0 no longer exists"),
                PlanFreshness.stale(moves, now));
        assertEquals(List.of("broker 3 is not in the cluster (its brokers: [1, 2])"),
                PlanFreshness.absentBrokers(moves, Set.of(1, 2)));
    }

    /** This plan's own move under way (its journal deleted): the replicas now are both sets, and the plan fits. */
    @Test
    void aPartitionMovingToThePlansReplicasFits() {
        List<PartitionMove> moves = List.of(new PartitionMove("t", 0, List.of(1, 2), List.of(3, 2), 10),
                new PartitionMove("t", 1, List.of(1, 2), List.of(3, 2), 10));
        Map<TopicPartition, List<Integer>> now = Map.of(new TopicPartition("t", 0), List.of(3, 2, 1),
                new TopicPartition("t", 1), List.of(4, 2, 1));
        Map<TopicPartition, List<Integer>> movingTo = Map.of(new TopicPartition("t", 0), List.of(3, 2),
                new TopicPartition("t", 1), List.of(4, 2));
        assertEquals(List.of("t-1 has replicas [4, 2, 1], the plan expected [1, 2]"),
                PlanFreshness.stale(moves, now, movingTo), "t-1 moves elsewhere: someone else's move");
    }
}
