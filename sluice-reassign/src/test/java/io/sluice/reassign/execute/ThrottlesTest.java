package io.sluice.reassign.execute;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.reassign.plan.PartitionMove;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The throttle configs of a plan and the rate for a catch-up time. */
class ThrottlesTest {

    @Test
    void sourcesAreThrottledOnTheLeaderSideAndNewReplicasOnTheFollowerSide() {
        List<PartitionMove> moves = List.of(
                new PartitionMove("t", 0, List.of(1, 2), List.of(4, 2), 100),
                new PartitionMove("t", 1, List.of(2, 3), List.of(2, 4), 100),
                new PartitionMove("u", 0, List.of(1, 3), List.of(3, 1), 0));
        List<TemporaryConfig> configs = Throttles.of(moves, 5_000);
        assertEquals(List.of(
                TemporaryConfig.broker(1, Throttles.LEADER_RATE, "5000"),
                TemporaryConfig.broker(1, Throttles.FOLLOWER_RATE, "5000"),
                TemporaryConfig.broker(2, Throttles.LEADER_RATE, "5000"),
                TemporaryConfig.broker(2, Throttles.FOLLOWER_RATE, "5000"),
                TemporaryConfig.broker(3, Throttles.LEADER_RATE, "5000"),
                TemporaryConfig.broker(3, Throttles.FOLLOWER_RATE, "5000"),
                TemporaryConfig.broker(4, Throttles.LEADER_RATE, "5000"),
                TemporaryConfig.broker(4, Throttles.FOLLOWER_RATE, "5000"),
                TemporaryConfig.topic("t", Throttles.LEADER_REPLICAS, "0:1,0:2,1:2,1:3"),
                TemporaryConfig.topic("t", Throttles.FOLLOWER_REPLICAS, "0:4,1:4")), configs,
                "u-0 only changes its leader: no throttle for it");
    }

    @Test
    void theCatchUpRateCopiesTheBusiestDestinationOfTheLargestBatchInTime() {
        List<List<PartitionMove>> batches = List.of(
                List.of(new PartitionMove("t", 0, List.of(1), List.of(4), 600),
                        new PartitionMove("t", 1, List.of(2), List.of(4), 400),
                        new PartitionMove("t", 2, List.of(3), List.of(5), 900)),
                List.of(new PartitionMove("t", 3, List.of(1), List.of(5), 500)));
        assertEquals(100, Throttles.forCatchUp(batches, 10), "broker 4 takes 1000 bytes in the first batch");
    }
}
