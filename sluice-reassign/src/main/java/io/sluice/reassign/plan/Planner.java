package io.sluice.reassign.plan;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * The fewest replica moves that reach a {@link Goal}, greedily: a removed broker's replicas go, one by one and
 * largest first, to the broker with the fewest bytes that keeps the partition on as many racks as possible; added
 * brokers take replicas from the fullest brokers until they carry their share of bytes (and of replicas, so empty
 * topics spread too); a balance moves replicas from the fullest to the emptiest broker while that narrows their gap.
 * No replica is moved twice and no move lowers the number of racks a partition is on. Preferred leaderships are then
 * evened out by reordering replica lists, which copies nothing.
 *
 * <p>Pure: no I/O. Threading: a planner is used by one thread at a time.
 */
public final class Planner {

    /** Brokers within this share of the average bytes count as balanced: moving more buys little. */
    static final double BALANCE_TOLERANCE = 0.05;

    private final ClusterSnapshot snapshot;

    public Planner(ClusterSnapshot snapshot) {
        this.snapshot = snapshot;
    }

    /**
     * The moves for {@code goal}, only of partitions of {@code topics} (all topics when empty).
     *
     * @throws IllegalArgumentException when the goal names unknown brokers or cannot be reached (a removed broker
     *     holds a partition of a topic left out, or no broker can take a replica)
     */
    public List<PartitionMove> plan(Goal goal, Set<String> topics) {
        for (int b : goal.brokers()) {
            if (snapshot.broker(b).isEmpty()) {
                throw new IllegalArgumentException("broker " + b + " is not in the cluster; its brokers are "
                        + snapshot.brokers().stream().map(x -> Integer.toString(x.id())).collect(Collectors.joining(",")));
            }
        }
        Set<String> inCluster = snapshot.partitions().stream().map(PartitionState::topic).collect(Collectors.toSet());
        List<String> unknown = topics.stream().filter(t -> !inCluster.contains(t)).sorted().toList();
        if (!unknown.isEmpty()) {
            // an empty plan for a misspelt topic looked like a balanced cluster
            throw new IllegalArgumentException((unknown.size() == 1 ? "topic " : "topics ") + String.join(", ", unknown)
                    + (unknown.size() == 1 ? " does" : " do") + " not exist in the cluster");
        }
        Predicate<PartitionState> movable = p -> topics.isEmpty() || topics.contains(p.topic());
        ReplicaLayout layout = new ReplicaLayout(snapshot);
        List<Integer> active = snapshot.brokers().stream().map(Broker::id)
                .filter(b -> goal.kind() != Goal.Kind.REMOVE_BROKERS || !goal.brokers().contains(b)).toList();
        if (active.isEmpty()) {
            throw new IllegalArgumentException("no broker would be left");
        }
        switch (goal.kind()) {
            case REMOVE_BROKERS -> emptyBrokers(layout, goal.brokers(), active, movable);
            case ADD_BROKERS -> fillBrokers(layout, List.copyOf(new TreeSet<>(goal.brokers())), active, movable);
            case BALANCE -> balanceBytes(layout, active, movable);
        }
        balanceLeaders(layout, active, movable);
        return layout.moves();
    }

    private static void emptyBrokers(ReplicaLayout layout, Set<Integer> removed, List<Integer> active,
            Predicate<PartitionState> movable) {
        List<PartitionState> largestFirst = new ArrayList<>();
        layout.partitions().forEach(largestFirst::add);
        largestFirst.sort(Comparator.comparingLong(PartitionState::bytes).reversed());
        for (PartitionState p : largestFirst) {
            for (int from : layout.replicas(p)) {
                if (!removed.contains(from)) {
                    continue;
                }
                if (!movable.test(p)) {
                    throw new IllegalArgumentException(p.name() + " has a replica on broker " + from
                            + ", which is to be removed, but its topic is not among the topics to move");
                }
                List<Integer> replicas = layout.replicas(p);
                int to = active.stream().filter(b -> !replicas.contains(b))
                        .min(Comparator.<Integer>comparingInt(b -> -layout.distinctRacks(layout.replaced(p, from, b)))
                                .thenComparingLong(layout::bytes)
                                .thenComparingInt(layout::count)
                                .thenComparingInt(b -> b))
                        .orElseThrow(() -> new IllegalArgumentException(p.name() + " has " + replicas.size()
                                + " replicas but only " + active.size() + (active.size() == 1 ? " broker" : " brokers")
                                + " would be left"));
                layout.move(p, from, to);
            }
        }
    }

    private static void fillBrokers(ReplicaLayout layout, List<Integer> added, List<Integer> active,
            Predicate<PartitionState> movable) {
        long total = active.stream().mapToLong(layout::bytes).sum();
        long share = total / active.size();
        long tolerance = Math.max(1, (long) (share * BALANCE_TOLERANCE));
        // bytes first: they are what fills disks and takes time to copy
        boolean moved = true;
        while (moved) {
            moved = false;
            for (int to : sortedBy(added, layout::bytes)) {
                long room = share - layout.bytes(to);
                if (room <= tolerance) {
                    continue;
                }
                for (int from : sortedBy(active, b -> -layout.bytes(b))) {
                    if (added.contains(from) || layout.bytes(from) - layout.bytes(to) <= tolerance) {
                        continue;
                    }
                    long gap = layout.bytes(from) - layout.bytes(to);
                    PartitionState best = bestFit(layout, from, to, movable,
                            p -> p.bytes() > 0 && p.bytes() < gap && p.bytes() <= room + tolerance, room);
                    if (best != null) {
                        layout.move(best, from, to);
                        moved = true;
                        break;
                    }
                }
            }
        }
        // then replica counts, with the smallest partitions, so that empty and tiny topics spread as well
        int replicas = active.stream().mapToInt(layout::count).sum();
        int countShare = replicas / active.size();
        moved = true;
        while (moved) {
            moved = false;
            for (int to : sortedBy(added, b -> (long) layout.count(b))) {
                if (layout.count(to) >= countShare) {
                    continue;
                }
                for (int from : sortedBy(active, b -> -(long) layout.count(b))) {
                    if (added.contains(from) || layout.count(from) - layout.count(to) <= 1) {
                        continue;
                    }
                    PartitionState smallest = smallest(layout, from, to, movable,
                            p -> layout.bytes(to) + p.bytes() <= share + tolerance);
                    if (smallest != null) {
                        layout.move(smallest, from, to);
                        moved = true;
                        break;
                    }
                }
            }
        }
    }

    private static void balanceBytes(ReplicaLayout layout, List<Integer> active, Predicate<PartitionState> movable) {
        long total = active.stream().mapToLong(layout::bytes).sum();
        long tolerance = Math.max(1, (long) (total / active.size() * BALANCE_TOLERANCE));
        boolean moved = true;
        while (moved) {
            moved = false;
            search:
            for (int from : sortedBy(active, b -> -layout.bytes(b))) {
                for (int to : sortedBy(active, layout::bytes)) {
                    long gap = layout.bytes(from) - layout.bytes(to);
                    if (gap <= tolerance) {
                        break;
                    }
                    // a replica smaller than the gap narrows it; the one nearest half the gap narrows it most
                    PartitionState best = bestFit(layout, from, to, movable, p -> p.bytes() > 0 && p.bytes() < gap,
                            gap / 2);
                    if (best != null) {
                        layout.move(best, from, to);
                        moved = true;
                        break search;
                    }
                }
            }
        }
    }

    /** Reorders replica lists until every broker leads within one partition of every other. */
    private static void balanceLeaders(ReplicaLayout layout, List<Integer> active, Predicate<PartitionState> movable) {
        for (int round = 0; round < 10_000; round++) {
            List<Integer> byLeaders = sortedBy(active, b -> (long) layout.leaders(b));
            int least = byLeaders.get(0);
            int most = byLeaders.get(byLeaders.size() - 1);
            if (layout.leaders(most) - layout.leaders(least) <= 1) {
                return;
            }
            PartitionState swap = null;
            for (PartitionState p : layout.partitions()) {
                List<Integer> replicas = layout.replicas(p);
                if (movable.test(p) && replicas.get(0) == most && replicas.contains(least)) {
                    swap = p;
                    break;
                }
            }
            if (swap == null) {
                return; // no partition led by the busiest broker has a replica on the idlest
            }
            layout.lead(swap, least);
        }
    }

    /** The movable replica on {@code from} that fits and whose size is nearest {@code target}. */
    private static PartitionState bestFit(ReplicaLayout layout, int from, int to, Predicate<PartitionState> movable,
            Predicate<PartitionState> fits, long target) {
        PartitionState best = null;
        for (PartitionState p : layout.partitions()) {
            if (candidate(layout, p, from, to, movable) && fits.test(p)
                    && (best == null || Math.abs(p.bytes() - target) < Math.abs(best.bytes() - target))) {
                best = p;
            }
        }
        return best;
    }

    private static PartitionState smallest(ReplicaLayout layout, int from, int to, Predicate<PartitionState> movable,
            Predicate<PartitionState> fits) {
        PartitionState best = null;
        for (PartitionState p : layout.partitions()) {
            if (candidate(layout, p, from, to, movable) && fits.test(p) && (best == null || p.bytes() < best.bytes())) {
                best = p;
            }
        }
        return best;
    }

    private static boolean candidate(ReplicaLayout layout, PartitionState p, int from, int to,
            Predicate<PartitionState> movable) {
        List<Integer> replicas = layout.replicas(p);
        return movable.test(p) && replicas.contains(from) && !replicas.contains(to)
                && !layout.placedByPlan(p, from) && layout.keepsRacks(p, from, to);
    }

    private static List<Integer> sortedBy(List<Integer> brokers, java.util.function.ToLongFunction<Integer> key) {
        return brokers.stream().sorted(Comparator.comparingLong(key).thenComparingInt(b -> b)).toList();
    }
}
