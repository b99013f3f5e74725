package io.sluice.reassign.execute;

import io.sluice.reassign.cluster.AdminCalls;
import io.sluice.reassign.cluster.ClusterException;
import io.sluice.reassign.plan.PartitionMove;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.DescribeLogDirsOptions;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.ListPartitionReassignmentsOptions;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.NewPartitionReassignment;
import org.apache.kafka.clients.admin.PartitionReassignment;
import org.apache.kafka.clients.admin.ReplicaInfo;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.ElectionType;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * The cluster side of moving partitions: which moves are under way, which are done, starting and cancelling them,
 * and the bytes the new replicas hold so far.
 *
 * <p>Threading: stateless apart from the caller's admin client, which is thread-safe.
 */
public final class Reassignments {

    /** How long a poll waits for one broker's log dirs before it takes the broker for one that does not answer. */
    public static final Duration LOG_DIRS_WAIT = Duration.ofSeconds(5);

    private final Admin admin;

    public Reassignments(Admin admin) {
        this.admin = admin;
    }

    /**
     * The reassignments under way among {@code partitions}, or on the whole cluster when empty; asked so that a broker
     * that holds the question does not hold the run ({@link AdminCalls#getFromAnyBroker}).
     */
    public Map<TopicPartition, PartitionReassignment> ongoing(Set<TopicPartition> partitions) {
        return AdminCalls.getFromAnyBroker(ms -> {
            ListPartitionReassignmentsOptions options = new ListPartitionReassignmentsOptions().timeoutMs(ms);
            return (partitions.isEmpty() ? admin.listPartitionReassignments(options)
                    : admin.listPartitionReassignments(partitions, options)).reassignments();
        }, "list partition reassignments");
    }

    /**
     * The replicas each move under way among {@code partitions} goes to, in their order (Kafka lists a moving
     * partition's replicas as its target, then those it removes).
     */
    public Map<TopicPartition, List<Integer>> targets(Set<TopicPartition> partitions) {
        Map<TopicPartition, List<Integer>> targets = new HashMap<>();
        ongoing(partitions).forEach((partition, move) -> targets.put(partition, move.replicas().stream()
                .filter(b -> !move.removingReplicas().contains(b)).toList()));
        return targets;
    }

    /**
     * Each partition's replicas now; a topic that does not exist has none (the caller names what is missing). Asked
     * as the moves under way are ({@link AdminCalls#fromAnyBroker}): a frozen broker held a new batch's start a minute.
     */
    public Map<TopicPartition, List<Integer>> replicas(Collection<String> topics) {
        return AdminCalls.fromAnyBroker(millis -> replicas(topics, millis), "describe the topics");
    }

    private Map<TopicPartition, List<Integer>> replicas(Collection<String> topics, int millis) {
        Map<TopicPartition, List<Integer>> replicas = new HashMap<>();
        Map<String, KafkaFuture<TopicDescription>> described = admin.describeTopics(Set.copyOf(topics),
                new DescribeTopicsOptions().timeoutMs(millis)).topicNameValues();
        described.forEach((name, future) -> {
            TopicDescription topic;
            try {
                topic = AdminCalls.get(future, "describe topic " + name);
            } catch (ClusterException e) {
                if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                    return;
                }
                throw e;
            }
            topic.partitions().forEach(p -> replicas.put(new TopicPartition(name, p.partition()),
                    p.replicas().stream().map(Node::id).toList()));
        });
        return replicas;
    }

    /** The cluster's ID, as its brokers give it. */
    public static String clusterId(Admin admin) {
        return AdminCalls.get(admin.describeCluster().clusterId(), "describe the cluster");
    }

    /** The brokers the cluster has now. */
    public static Set<Integer> brokers(Admin admin) {
        return AdminCalls.getFromAnyBroker(ms -> admin.describeCluster(new DescribeClusterOptions().timeoutMs(ms))
                .nodes(), "describe the cluster").stream().map(Node::id).collect(Collectors.toSet());
    }

    public void start(List<PartitionMove> moves) {
        Map<TopicPartition, Optional<NewPartitionReassignment>> targets = new HashMap<>();
        moves.forEach(m -> targets.put(m.topicPartition(), Optional.of(new NewPartitionReassignment(m.to()))));
        AdminCalls.get(admin.alterPartitionReassignments(targets).all(), "start moving " + names(moves));
    }

    /** Cancels the moves under way: their partitions keep the replicas they had before. */
    public void cancel(Set<TopicPartition> partitions) {
        Map<TopicPartition, Optional<NewPartitionReassignment>> targets = new HashMap<>();
        partitions.forEach(tp -> targets.put(tp, Optional.empty()));
        AdminCalls.get(admin.alterPartitionReassignments(targets).all(), "cancel the moves of " + partitions);
    }

    /**
     * Makes each partition's first replica its leader again, where it is not (after moves reorder the lists). A
     * partition whose preferred leader already leads answers ELECTION_NOT_NEEDED, and one whose preferred leader is
     * not in sync yet keeps its leader until the brokers' own rebalance: neither stops the run.
     */
    public void electPreferredLeaders(Set<TopicPartition> partitions) {
        if (partitions.isEmpty()) {
            return;
        }
        AdminCalls.get(admin.electLeaders(ElectionType.PREFERRED, partitions).partitions(), "elect preferred leaders");
    }

    /** Bytes the new replicas of {@code moves} hold now, each counted up to the partition's size. */
    public long copied(List<PartitionMove> moves) {
        return copies(moves).bytes();
    }

    /**
     * What the new replicas of some moves hold now: their bytes, each counted up to the partition's size (0 for a
     * replica whose broker did not answer), and the brokers among theirs that did not answer.
     */
    public record Copies(long bytes, Set<Integer> unanswered) {
    }

    /**
     * The bytes the new replicas of {@code moves} hold now, asking each of their brokers that is in the cluster, for
     * at most {@link #LOG_DIRS_WAIT} each. A broker that is down or cut off does not fail the call (it held a run's
     * progress for a minute, then ended it): it is named among the unanswered, and its replicas count 0 meanwhile.
     */
    public Copies copies(List<PartitionMove> moves) {
        Set<Integer> brokers = moves.stream().flatMap(m -> m.adding().stream())
                .collect(Collectors.toCollection(java.util.TreeSet::new));
        if (brokers.isEmpty()) {
            return new Copies(0, Set.of());
        }
        Set<Integer> unanswered = new java.util.TreeSet<>(brokers);
        Set<Integer> present = brokers(admin);
        unanswered.removeAll(present);
        Set<Integer> asked = new java.util.TreeSet<>(brokers);
        asked.retainAll(present);
        Map<Integer, Map<String, LogDirDescription>> dirs = new HashMap<>();
        if (!asked.isEmpty()) {
            admin.describeLogDirs(asked, new DescribeLogDirsOptions().timeoutMs((int) LOG_DIRS_WAIT.toMillis()))
                    .descriptions().forEach((broker, future) -> {
                        try {
                            dirs.put(broker, AdminCalls.get(future, "describe the log dirs of broker " + broker));
                        } catch (ClusterException e) {
                            if (!(e.getCause() instanceof RetriableException)) {
                                throw e;
                            }
                            unanswered.add(broker); // a timeout or a connection that failed: down, or cut off
                        }
                    });
        }
        long copied = 0;
        for (PartitionMove move : moves) {
            for (int b : move.adding()) {
                copied += Math.min(sizeOn(dirs, b, move.topicPartition()), move.bytes());
            }
        }
        return new Copies(copied, Set.copyOf(unanswered));
    }

    /**
     * Whether every new replica of {@code move} holds as many bytes as the largest of its replicas before the move: a
     * copy that caught up waits only for the leader to take it into sync, and does not grow meanwhile.
     */
    public boolean caughtUp(PartitionMove move) {
        Set<Integer> brokers = new java.util.HashSet<>(move.adding());
        brokers.addAll(move.from());
        Map<Integer, Map<String, LogDirDescription>> dirs = AdminCalls.get(admin.describeLogDirs(brokers)
                .allDescriptions(), "describe log dirs");
        long before = move.from().stream().mapToLong(b -> sizeOn(dirs, b, move.topicPartition())).max().orElse(0);
        return move.adding().stream().allMatch(b -> sizeOn(dirs, b, move.topicPartition()) >= before);
    }

    private static long sizeOn(Map<Integer, Map<String, LogDirDescription>> dirs, int broker, TopicPartition tp) {
        long size = 0;
        for (LogDirDescription dir : dirs.getOrDefault(broker, Map.of()).values()) {
            ReplicaInfo info = dir.replicaInfos().get(tp);
            if (info != null && !info.isFuture()) {
                size = Math.max(size, info.size());
            }
        }
        return size;
    }

    static String names(List<PartitionMove> moves) {
        return moves.stream().map(m -> m.topic() + "-" + m.partition()).collect(Collectors.joining(", "));
    }
}
