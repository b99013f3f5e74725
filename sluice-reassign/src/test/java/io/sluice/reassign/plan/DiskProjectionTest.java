package io.sluice.reassign.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Disk now, at peak and after, and the headroom refusal. */
class DiskProjectionTest {

    @Test
    void thePeakHoldsEveryIncomingReplicaBeforeAnyOutgoingOneIsDeleted() {
        ClusterSnapshot cluster = new Clusters().brokers(1, 2, 3)
                .disk(1, 10_000, 1_000).disk(2, 10_000, 1_000).disk(3, 10_000, 0)
                .partition("t", 0, 2_000, 1, 2)
                .partition("t", 1, 3_000, 1, 2)
                .snapshot();
        List<PartitionMove> moves = List.of(
                new PartitionMove("t", 0, List.of(1, 2), List.of(3, 2), 2_000),
                new PartitionMove("t", 1, List.of(1, 2), List.of(1, 3), 3_000));
        List<DiskUse> uses = DiskProjection.of(cluster, moves);

        DiskUse one = uses.get(0);
        assertEquals(6_000, one.now(), "5000 of replicas + 1000 of other files");
        assertEquals(6_000, one.peak(), "nothing arrives on broker 1");
        assertEquals(4_000, one.after(), "t-0 leaves");
        DiskUse two = uses.get(1);
        assertEquals(List.of(6_000L, 6_000L, 3_000L), List.of(two.now(), two.peak(), two.after()));
        DiskUse three = uses.get(2);
        assertEquals(0, three.now());
        assertEquals(5_000, three.peak(), "both copies at once");
        assertEquals(5_000, three.after());
        assertEquals(0.5, three.peakShare(), 1e-9);
    }

    @Test
    void aPlanWhosePeakPassesTheHeadroomIsNamedWithItsLogDir() {
        Clusters builder = new Clusters().brokers(1, 2, 3, 4)
                .disk(1, 10_000, 0).disk(2, 10_000, 0).disk(3, 10_000, 0).disk(4, 10_000, 6_000);
        builder.onFirstThree("t", 4, 1_000);
        ClusterSnapshot cluster = builder.snapshot();
        List<PartitionMove> moves = new Planner(cluster).plan(Goal.add(Set.of(4)), Set.of());
        List<DiskUse> uses = DiskProjection.of(cluster, moves);
        List<DiskUse> over = new DiskHeadroom(0.80).exceeded(uses);
        assertEquals(1, over.size(), uses.toString());
        assertEquals(4, over.get(0).broker());
        assertEquals(9_000, over.get(0).peak(), "6000 of other files and its share of 3000");
        assertEquals(8_000, new DiskHeadroom(0.80).limitBytes(over.get(0)));
        assertTrue(new DiskHeadroom(0.95).exceeded(uses).isEmpty());
        assertEquals(List.of(over.get(0)), new DiskHeadroom(0.95).tight(uses, 0.10), "within 10% of 95%");
    }

    /**
     * A broker already over the limit that only gives replicas away is not refused: the plan cannot flood it, and
     * refusing it meant such a broker could never be drained (a new user's `--remove-brokers 1` on a full disk).
     */
    @Test
    void aLogDirThatOnlyGivesReplicasAwayIsNeverOverTheHeadroom() {
        Clusters builder = new Clusters().brokers(1, 2).disk(1, 10_000, 8_500).disk(2, 10_000, 0);
        ClusterSnapshot cluster = builder.partition("t", 0, 500, 1).snapshot();
        List<DiskUse> uses = DiskProjection.of(cluster,
                List.of(new PartitionMove("t", 0, List.of(1), List.of(2), 500)));
        DiskUse full = uses.get(0);
        assertTrue(full.peakShare() > 0.80, "over the limit already: " + full);
        assertEquals(full.now(), full.peak(), "nothing arrives");
        assertTrue(new DiskHeadroom(0.80).exceeded(uses).isEmpty(), uses.toString());
    }

    @Test
    void aVolumeOfUnknownSizeIsNeverOverTheHeadroom() {
        ClusterSnapshot cluster = new Clusters().brokers(1, 2).partition("t", 0, 2_000, 1).snapshot();
        List<DiskUse> uses = DiskProjection.of(cluster,
                List.of(new PartitionMove("t", 0, List.of(1), List.of(2), 2_000)));
        assertEquals(2_000, uses.get(0).now(), "the replicas' bytes when the volume is unknown");
        assertEquals(2_000, uses.get(1).peak());
        assertTrue(new DiskHeadroom(0.01).exceeded(uses).isEmpty());
    }
}
