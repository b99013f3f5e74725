package io.sluice.reassign.guard;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.reassign.execute.TemporaryConfig;
import io.sluice.reassign.plan.Broker;
import io.sluice.reassign.plan.ClusterSnapshot;
import io.sluice.reassign.plan.PartitionState;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Seed 002's temporary retention.bytes, computed as the seed computed it by hand. */
class RetentionGuardTest {

    private static final long GIB = 1L << 30;

    @Test
    void theSeedsExampleGivesTheSeedsFigure() {
        // "beispiel": 64 partitions, replication factor 3, 1000 GiB on disk, 10% allowance: ~6151645870 bytes
        List<PartitionState> partitions = new ArrayList<>();
        for (int p = 0; p < 64; p++) {
            partitions.add(new PartitionState("beispiel", p, List.of(1, 2, 3), Map.of(), 1000 * GIB / 64 / 3));
        }
        ClusterSnapshot cluster = new ClusterSnapshot(List.of(new Broker(1, null), new Broker(2, null),
                new Broker(3, null)), partitions, List.of());
        assertEquals(6_151_645_870.0, RetentionGuard.limit(cluster, "beispiel", 1.10), 10.0);
    }

    @Test
    void aTopicWhoseOwnLimitIsLowerKeepsIt() {
        ClusterSnapshot cluster = new ClusterSnapshot(List.of(new Broker(1, null)),
                List.of(new PartitionState("a", 0, List.of(1), Map.of(), 1_000),
                        new PartitionState("b", 0, List.of(1), Map.of(), 1_000),
                        new PartitionState("c", 0, List.of(1), Map.of(), 1_000)), List.of());
        List<TemporaryConfig> configs = RetentionGuard.of(cluster, Set.of("a", "b", "c"), 1.5,
                Map.of("a", 500L, "b", 5_000L));
        assertEquals(List.of(TemporaryConfig.topic("b", "retention.bytes", "1500"),
                TemporaryConfig.topic("c", "retention.bytes", "1500")), configs);
    }

    /**
     * A partition larger than the topic's average keeps every record: the seed's average-based limit deleted the
     * oldest records of the largest partition as soon as it was set (a new user's skewed topic lost 24,768 of 30,000).
     */
    @Test
    void theLimitIsTheLargestPartitionsSizeSoNoRecordIsDeletedBySettingIt() {
        ClusterSnapshot cluster = new ClusterSnapshot(List.of(new Broker(1, null), new Broker(2, null)),
                List.of(new PartitionState("skewed", 0, List.of(1, 2), Map.of(), 30_000_000),
                        new PartitionState("skewed", 1, List.of(2, 1), Map.of(), 3_000_000),
                        new PartitionState("skewed", 2, List.of(1, 2), Map.of(), 3_000_000)), List.of());
        assertEquals(33_000_000, RetentionGuard.limit(cluster, "skewed", 1.10));
    }
}
