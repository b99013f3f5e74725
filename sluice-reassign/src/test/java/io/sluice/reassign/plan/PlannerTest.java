package io.sluice.reassign.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The planner on hand-made clusters: fewest moves for each goal, racks kept, leaderships even. */
class PlannerTest {

    /** A misspelt topic is refused: its empty plan looked like a balanced cluster. */
    @Test
    void topicsTheClusterDoesNotHaveAreRefused() {
        ClusterSnapshot cluster = new Clusters().brokers(1, 2).partition("t", 0, 100, 1, 2).snapshot();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new Planner(cluster).plan(Goal.balance(), Set.of("t", "tpoic")));
        assertEquals("topic tpoic does not exist in the cluster", e.getMessage());
    }

    @Test
    void removingABrokerMovesExactlyItsReplicasAndNothingElse() {
        ClusterSnapshot cluster = new Clusters().brokers(1, 2, 3, 4)
                .partition("t", 0, 100, 1, 2, 4)
                .partition("t", 1, 100, 2, 3, 1)
                .partition("t", 2, 100, 4, 3, 2)
                .partition("t", 3, 100, 3, 4, 1)
                .snapshot();
        List<PartitionMove> moves = new Planner(cluster).plan(Goal.remove(Set.of(4)), Set.of());

        Map<String, List<Integer>> after = after(cluster, moves);
        after.values().forEach(r -> {
            assertTrue(!r.contains(4), "nothing left on broker 4: " + r);
            assertEquals(3, new HashSet<>(r).size(), "three distinct replicas: " + r);
        });
        assertEquals(3, moves.stream().mapToInt(PartitionMove::replicaMoves).sum(),
                "one copy per replica broker 4 held, no other");
    }

    @Test
    void aRemovedBrokersReplicasGoToTheEmptiestBrokers() {
        ClusterSnapshot cluster = new Clusters().brokers(1, 2, 3, 4)
                .partition("big", 0, 1_000, 1, 2)
                .partition("small", 0, 10, 3, 4)
                .partition("small", 1, 10, 4, 1)
                .snapshot();
        Map<String, List<Integer>> after = after(cluster, new Planner(cluster).plan(Goal.remove(Set.of(4)), Set.of()));
        // loads: 1 holds 1010, 2 holds 1000, 3 holds 10; the largest replica first, each to the emptiest candidate
        assertEquals(Set.of(3, 2), Set.copyOf(after.get("small-0")), after.toString());
        assertEquals(Set.of(3, 1), Set.copyOf(after.get("small-1")), after.toString());
        assertEquals(Set.of(1, 2, 3), Set.of(after.get("big-0").get(0), after.get("small-0").get(0),
                after.get("small-1").get(0)), "then one preferred leadership each: " + after);
    }

    @Test
    void anAddedBrokerTakesItsShareWithTheFewestMovesAndNoneBetweenOldBrokers() {
        Clusters builder = new Clusters().brokers(1, 2, 3, 4);
        builder.onFirstThree("t", 4, 1_000);
        ClusterSnapshot cluster = builder.snapshot();
        List<PartitionMove> moves = new Planner(cluster).plan(Goal.add(Set.of(4)), Set.of());

        int copies = moves.stream().mapToInt(PartitionMove::replicaMoves).sum();
        assertEquals(3, copies, "12 replicas over 4 brokers: broker 4 takes 3, each one copy: " + moves);
        moves.forEach(m -> assertTrue(m.adding().isEmpty() || m.adding().equals(List.of(4)),
                "copies only go to the new broker: " + m));
        Map<Integer, Integer> counts = replicaCounts(after(cluster, moves));
        assertEquals(Map.of(1, 3, 2, 3, 3, 3, 4, 3), counts);
    }

    @Test
    void anAddedBrokerAlsoGetsReplicasOfEmptyTopics() {
        Clusters builder = new Clusters().brokers(1, 2, 3, 4);
        for (int p = 0; p < 8; p++) {
            builder.partition("empty", p, 0, 1 + p % 3, 1 + (p + 1) % 3);
        }
        ClusterSnapshot cluster = builder.snapshot();
        Map<Integer, Integer> counts = replicaCounts(after(cluster,
                new Planner(cluster).plan(Goal.add(Set.of(4)), Set.of())));
        assertEquals(4, counts.get(4), "16 replicas over 4 brokers: " + counts);
    }

    @Test
    void anAddedBrokerLeadsItsShareOfPartitions() {
        Clusters builder = new Clusters().brokers(1, 2, 3, 4);
        builder.onFirstThree("t", 8, 100);
        ClusterSnapshot cluster = builder.snapshot();
        Map<String, List<Integer>> after = after(cluster, new Planner(cluster).plan(Goal.add(Set.of(4)), Set.of()));
        Map<Integer, Integer> leaders = new HashMap<>();
        after.values().forEach(r -> leaders.merge(r.get(0), 1, Integer::sum));
        int most = leaders.values().stream().mapToInt(i -> i).max().orElseThrow();
        int least = List.of(1, 2, 3, 4).stream().mapToInt(b -> leaders.getOrDefault(b, 0)).min().orElseThrow();
        assertTrue(most - least <= 1, "preferred leaderships within one of each other: " + leaders);
    }

    @Test
    void leadershipIsEvenedOutByReorderingWithoutCopying() {
        ClusterSnapshot cluster = new Clusters().brokers(1, 2)
                .partition("t", 0, 100, 1, 2)
                .partition("t", 1, 100, 1, 2)
                .partition("t", 2, 100, 1, 2)
                .partition("t", 3, 100, 1, 2)
                .snapshot();
        List<PartitionMove> moves = new Planner(cluster).plan(Goal.balance(), Set.of());
        assertEquals(2, moves.size(), "two partitions change their preferred leader: " + moves);
        moves.forEach(m -> {
            assertEquals(0, m.replicaMoves(), "a reorder copies nothing: " + m);
            assertEquals(0, m.bytes());
            assertEquals(2, m.to().get(0));
        });
    }

    @Test
    void aMoveNeverPutsTwoReplicasOfAPartitionOnOneRackWhenTheyWereOnTwo() {
        ClusterSnapshot cluster = new Clusters()
                .broker(1, "a").broker(2, "a").broker(3, "b").broker(4, "b")
                .partition("t", 0, 100, 1, 3)
                .partition("u", 0, 5_000, 2, 4)
                .snapshot();
        // broker 2 holds much more than broker 4, yet 3's replica of t-0 must stay on rack b
        Map<String, List<Integer>> after = after(cluster, new Planner(cluster).plan(Goal.remove(Set.of(3)), Set.of()));
        assertEquals(List.of(1, 4), after.get("t-0"));
    }

    @Test
    void balancingRespectsRacks() {
        ClusterSnapshot cluster = new Clusters()
                .broker(1, "a").broker(2, "a").broker(3, "b").broker(4, "b")
                .partition("t", 0, 1_000, 1, 3)
                .partition("t", 1, 1_000, 1, 3)
                .partition("t", 2, 1_000, 1, 3)
                .partition("t", 3, 1_000, 1, 3)
                .snapshot();
        List<PartitionMove> moves = new Planner(cluster).plan(Goal.balance(), Set.of());
        Map<String, List<Integer>> after = after(cluster, moves);
        Map<Integer, String> racks = Map.of(1, "a", 2, "a", 3, "b", 4, "b");
        after.forEach((p, r) -> assertEquals(2, r.stream().map(racks::get).distinct().count(), p + " " + r));
        Map<Integer, Integer> counts = replicaCounts(after);
        assertEquals(Map.of(1, 2, 2, 2, 3, 2, 4, 2), counts, "bytes even within each rack: " + moves);
        assertEquals(4, moves.stream().mapToInt(PartitionMove::replicaMoves).sum(), "4 copies, the fewest");
    }

    @Test
    void balancingMovesTheReplicaThatNarrowsTheGapMostAndStopsWhenEven() {
        ClusterSnapshot cluster = new Clusters().brokers(1, 2)
                .partition("t", 0, 600, 1)
                .partition("t", 1, 300, 1)
                .partition("t", 2, 300, 1)
                .snapshot();
        List<PartitionMove> moves = new Planner(cluster).plan(Goal.balance(), Set.of());
        // 1200 bytes on broker 1: the 600-byte replica alone evens it out
        assertEquals(1, moves.stream().mapToInt(PartitionMove::replicaMoves).sum(), moves.toString());
        assertEquals("t-0", moves.stream().filter(m -> m.replicaMoves() > 0).findFirst().orElseThrow().topic() + "-"
                + moves.stream().filter(m -> m.replicaMoves() > 0).findFirst().orElseThrow().partition());
    }

    @Test
    void aBalancedClusterNeedsNoMove() {
        ClusterSnapshot cluster = new Clusters().brokers(1, 2, 3)
                .partition("t", 0, 100, 1, 2)
                .partition("t", 1, 100, 2, 3)
                .partition("t", 2, 100, 3, 1)
                .snapshot();
        assertEquals(List.of(), new Planner(cluster).plan(Goal.balance(), Set.of()));
    }

    @Test
    void onlyTheTopicsNamedMove() {
        ClusterSnapshot cluster = new Clusters().brokers(1, 2, 3)
                .partition("keep", 0, 100, 3, 1)
                .partition("move", 0, 100, 3, 2)
                .snapshot();
        List<PartitionMove> moves = new Planner(cluster).plan(Goal.remove(Set.of(3)), Set.of("keep", "move"));
        assertEquals(2, moves.size());
        IllegalArgumentException left = assertThrows(IllegalArgumentException.class,
                () -> new Planner(cluster).plan(Goal.remove(Set.of(3)), Set.of("move")));
        assertTrue(left.getMessage().contains("keep-0 has a replica on broker 3"), left.getMessage());
    }

    @Test
    void unknownBrokersAndTooFewBrokersAreRefused() {
        ClusterSnapshot cluster = new Clusters().brokers(1, 2, 3).partition("t", 0, 1, 1, 2, 3).snapshot();
        assertThrows(IllegalArgumentException.class, () -> new Planner(cluster).plan(Goal.add(Set.of(9)), Set.of()));
        IllegalArgumentException few = assertThrows(IllegalArgumentException.class,
                () -> new Planner(cluster).plan(Goal.remove(Set.of(3)), Set.of()));
        assertTrue(few.getMessage().contains("only 2 brokers would be left"), few.getMessage());
    }

    static Map<String, List<Integer>> after(ClusterSnapshot cluster, List<PartitionMove> moves) {
        Map<String, List<Integer>> after = new HashMap<>();
        cluster.partitions().forEach(p -> after.put(p.name(), p.replicas()));
        moves.forEach(m -> after.put(m.topic() + "-" + m.partition(), m.to()));
        return after;
    }

    static Map<Integer, Integer> replicaCounts(Map<String, List<Integer>> layout) {
        Map<Integer, Integer> counts = new HashMap<>();
        layout.values().forEach(r -> r.forEach(b -> counts.merge(b, 1, Integer::sum)));
        return counts;
    }
}
