package io.sluice.reassign.execute;

import io.sluice.reassign.plan.PartitionMove;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The replication throttles for a plan, as {@code kafka-reassign-partitions} sets them: a rate on every broker that
 * sends or receives a copy ({@code leader.} / {@code follower.replication.throttled.rate}), and per topic the
 * replicas it applies to: the current replicas of each moving partition on the leader side, the new ones on the
 * follower side. Brokers throttle only replicas out of sync, so the partitions' own replication is not slowed.
 *
 * <p>Pure. Threading: stateless.
 */
public final class Throttles {

    public static final String LEADER_RATE = "leader.replication.throttled.rate";
    public static final String FOLLOWER_RATE = "follower.replication.throttled.rate";
    public static final String LEADER_REPLICAS = "leader.replication.throttled.replicas";
    public static final String FOLLOWER_REPLICAS = "follower.replication.throttled.replicas";

    /** Every throttle config a broker or topic can carry. */
    public static final Set<String> BROKER_KEYS = Set.of(LEADER_RATE, FOLLOWER_RATE);
    public static final Set<String> TOPIC_KEYS = Set.of(LEADER_REPLICAS, FOLLOWER_REPLICAS);

    private Throttles() {
    }

    public static List<TemporaryConfig> of(List<PartitionMove> moves, long bytesPerSecond) {
        Set<Integer> brokers = new TreeSet<>();
        Map<String, Set<String>> leaders = new TreeMap<>();
        Map<String, Set<String>> followers = new TreeMap<>();
        for (PartitionMove move : moves) {
            if (move.adding().isEmpty()) {
                continue; // a new preferred leader copies nothing
            }
            brokers.addAll(move.from());
            brokers.addAll(move.adding());
            for (int b : move.from()) {
                leaders.computeIfAbsent(move.topic(), t -> new TreeSet<>()).add(move.partition() + ":" + b);
            }
            for (int b : move.adding()) {
                followers.computeIfAbsent(move.topic(), t -> new TreeSet<>()).add(move.partition() + ":" + b);
            }
        }
        List<TemporaryConfig> configs = new ArrayList<>();
        String rate = Long.toString(bytesPerSecond);
        for (int b : brokers) {
            configs.add(TemporaryConfig.broker(b, LEADER_RATE, rate));
            configs.add(TemporaryConfig.broker(b, FOLLOWER_RATE, rate));
        }
        leaders.forEach((topic, replicas) -> configs.add(
                TemporaryConfig.topic(topic, LEADER_REPLICAS, String.join(",", replicas))));
        followers.forEach((topic, replicas) -> configs.add(
                TemporaryConfig.topic(topic, FOLLOWER_REPLICAS, String.join(",", replicas))));
        return configs;
    }

    /**
     * The rate that copies the largest batch's bytes into its busiest destination broker within {@code seconds}:
     * every destination of a batch copies at the same time, each at most at the rate.
     */
    public static long forCatchUp(List<List<PartitionMove>> batches, long seconds) {
        long busiest = 1;
        for (List<PartitionMove> batch : batches) {
            Map<Integer, Long> incoming = new TreeMap<>();
            for (PartitionMove move : batch) {
                move.adding().forEach(b -> incoming.merge(b, move.bytes(), Long::sum));
            }
            for (long bytes : incoming.values()) {
                busiest = Math.max(busiest, bytes);
            }
        }
        return Math.max(1, busiest / Math.max(1, seconds));
    }
}
