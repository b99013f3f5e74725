package io.sluice.reassign.plan;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The replica lists being planned, with each broker's bytes, replica count and preferred leaderships kept up to date
 * as replicas move, and the rack rule every move obeys.
 *
 * <p>Threading: confined to the planning thread.
 */
final class ReplicaLayout {

    private final Map<String, PartitionState> original = new LinkedHashMap<>();
    private final Map<String, List<Integer>> replicas = new LinkedHashMap<>();
    private final Map<Integer, String> racks = new HashMap<>();
    private final Map<Integer, Long> bytes = new HashMap<>();
    private final Map<Integer, Integer> counts = new HashMap<>();
    private final Map<Integer, Integer> leaders = new HashMap<>();
    /** Replicas placed by this plan (partition name + broker): moving one again would copy it twice. */
    private final Set<String> placed = new HashSet<>();

    ReplicaLayout(ClusterSnapshot snapshot) {
        for (Broker broker : snapshot.brokers()) {
            racks.put(broker.id(), broker.rack());
            bytes.put(broker.id(), 0L);
            counts.put(broker.id(), 0);
            leaders.put(broker.id(), 0);
        }
        for (PartitionState p : snapshot.partitions()) {
            original.put(p.name(), p);
            replicas.put(p.name(), new ArrayList<>(p.replicas()));
            for (int b : p.replicas()) {
                bytes.merge(b, p.bytes(), Long::sum);
                counts.merge(b, 1, Integer::sum);
            }
            if (!p.replicas().isEmpty()) {
                leaders.merge(p.replicas().get(0), 1, Integer::sum);
            }
        }
    }

    Iterable<PartitionState> partitions() {
        return original.values();
    }

    List<Integer> replicas(PartitionState p) {
        return List.copyOf(replicas.get(p.name()));
    }

    long bytes(int broker) {
        return bytes.getOrDefault(broker, 0L);
    }

    int count(int broker) {
        return counts.getOrDefault(broker, 0);
    }

    int leaders(int broker) {
        return leaders.getOrDefault(broker, 0);
    }

    boolean placedByPlan(PartitionState p, int broker) {
        return placed.contains(p.name() + "@" + broker);
    }

    /** Distinct racks of a replica list; brokers without a rack count as one rack each. */
    int distinctRacks(List<Integer> list) {
        Set<String> seen = new HashSet<>();
        for (int b : list) {
            String rack = racks.get(b);
            seen.add(rack == null ? "\0broker-" + b : rack);
        }
        return seen.size();
    }

    /** The replica list with {@code from} replaced by {@code to} in the same position (it keeps the leadership). */
    List<Integer> replaced(PartitionState p, int from, int to) {
        List<Integer> list = new ArrayList<>(replicas.get(p.name()));
        list.set(list.indexOf(from), to);
        return list;
    }

    /** Whether moving the replica keeps the partition on at least as many racks as it is on now. */
    boolean keepsRacks(PartitionState p, int from, int to) {
        List<Integer> now = replicas.get(p.name());
        return distinctRacks(replaced(p, from, to)) >= distinctRacks(now);
    }

    void move(PartitionState p, int from, int to) {
        List<Integer> list = replicas.get(p.name());
        int position = list.indexOf(from);
        list.set(position, to);
        bytes.merge(from, -p.bytes(), Long::sum);
        bytes.merge(to, p.bytes(), Long::sum);
        counts.merge(from, -1, Integer::sum);
        counts.merge(to, 1, Integer::sum);
        if (position == 0) {
            leaders.merge(from, -1, Integer::sum);
            leaders.merge(to, 1, Integer::sum);
        }
        placed.add(p.name() + "@" + to);
    }

    /** Makes {@code broker}, already a replica, the preferred leader (first in the list): no data moves. */
    void lead(PartitionState p, int broker) {
        List<Integer> list = replicas.get(p.name());
        int old = list.get(0);
        list.remove(Integer.valueOf(broker));
        list.add(0, broker);
        leaders.merge(old, -1, Integer::sum);
        leaders.merge(broker, 1, Integer::sum);
    }

    /** Every partition whose replica list differs from the cluster's, in the snapshot's order. */
    List<PartitionMove> moves() {
        List<PartitionMove> moves = new ArrayList<>();
        for (PartitionState p : original.values()) {
            List<Integer> now = replicas.get(p.name());
            if (!Objects.equals(now, p.replicas())) {
                boolean copies = !new HashSet<>(p.replicas()).containsAll(now);
                moves.add(new PartitionMove(p.topic(), p.partition(), p.replicas(), now, copies ? p.bytes() : 0));
            }
        }
        return moves;
    }
}
