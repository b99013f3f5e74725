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
        List<TemporaryConfig> configs = RetentionGuard.of(cluster, Set.of("a", "b", "c"), Map.of(), 1.5,
                Map.of("a", 500L, "b", 5_000L)).stream().map(RetentionGuard.Guard::config).toList();
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

    /**
     * A topic moving to a log dir whose peak is tight may grow by its replicas' share of what the dir has left under
     * the limit, not by 10%: a new user's topic, written to during a move that added nothing to a disk already at 72%
     * of 80%, lost its 12,477 oldest records to a 10% allowance. Pinned as well, the lower limit holds.
     */
    @Test
    void aTopicMovingToATightLogDirMayGrowByItsShareOfWhatTheDirHasLeft() {
        ClusterSnapshot cluster = new ClusterSnapshot(List.of(new Broker(1, null), new Broker(2, null)),
                List.of(new PartitionState("events", 0, List.of(1, 2), Map.of(), 5_400_000),
                        new PartitionState("events", 1, List.of(2, 1), Map.of(), 5_000_000),
                        new PartitionState("pinned", 0, List.of(1, 2), Map.of(), 1_000_000)), List.of());
        RetentionGuard.Room room = new RetentionGuard.Room(2, "/data/kafka", 2_000_000_000L, 0.717, 0.80);
        List<RetentionGuard.Guard> guards = RetentionGuard.of(cluster, Set.of("pinned"), Map.of("events", room,
                "pinned", room), 1.10, Map.of());
        assertEquals(List.of(TemporaryConfig.topic("events", "retention.bytes", "2005400000"),
                TemporaryConfig.topic("pinned", "retention.bytes", "1100000")),
                guards.stream().map(RetentionGuard.Guard::config).toList());
        assertEquals("broker 2's /data/kafka would be at 71.7% of its disk at the move's peak, within 10 points of "
                + "--max-disk-use 80%, so a partition of it may hold its largest partition's bytes and the topic's "
                + "share of what is left there, 2,000.0 MB",
                guards.get(0).why());
        assertEquals("records dated ahead, or without a timestamp, keep its segments past its retention.ms, so its "
                + "partitions may grow by 10% (--retention-allowance); and broker 2's /data/kafka would be at 71.7% of "
                + "its disk at the move's peak, within 10 points of --max-disk-use 80%, so a partition of it may hold "
                + "its largest partition's bytes and the topic's share of what is left there, 2,000.0 MB",
                guards.get(1).why());
    }
}
