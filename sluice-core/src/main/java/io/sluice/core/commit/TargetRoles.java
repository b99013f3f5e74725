package io.sluice.core.commit;

import io.sluice.core.ClusterConnection;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.config.ConfigResource;

/**
 * Asks the cluster a run writes to which of its brokers this run needs, and for what: the leaders of the partitions
 * it writes, the coordinator of its progress group (every commit writes the progress there), the coordinators of its
 * transactions. Two metadata questions that any broker answers (the brokers, and the topics with their leaders,
 * internal ones included): a coordinator is the leader of the partition of {@code __consumer_offsets} or
 * {@code __transaction_state} that its id hashes to, as Kafka places them, so no question waits on a coordinator
 * that may be the broker not answering. An answer is also proof that the cluster answers.
 *
 * <p>It asks through an admin client of its own, connected to every broker ahead of any fault ({@link #prepare}), that
 * gives up a request a broker holds, or a connection it cannot make, after {@link #REQUEST_TIMEOUT}, shorter than a
 * question, and asks each question twice at once: a question that went to the broker that does not answer (its first
 * metadata question went to a bootstrap address; with Kafka's 30 s every question until then timed out, so the whole
 * target was called silent, measured with a merge whose output broker was black-holed) is answered by another.
 *
 * <p>Threading: {@link #ask} and {@link #close} from any thread, under this object's lock; the admin client's thread
 * completes the answers.
 */
public final class TargetRoles implements TargetBrokers.Probe, AutoCloseable {

    /**
     * Shorter than a question at the usual grace ({@link TargetBrokers#askAfter}: 5 s), so the next question goes to
     * another broker; a shorter question (a lowered grace) is asked twice at once, and one of the two goes elsewhere.
     */
    static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(4);

    /** Where Kafka keeps the groups' state and the transactions' state: their coordinators lead these partitions. */
    private static final String GROUPS_TOPIC = "__consumer_offsets";
    private static final String TRANSACTIONS_TOPIC = "__transaction_state";

    private final Map<String, Object> connection;
    private Admin admin;
    /** Whether {@link #admin} is this object's to close (else a run's own, already connected to the cluster). */
    private final boolean owned;
    private boolean closed;
    private final Supplier<? extends Collection<TopicPartition>> written;
    private final Optional<String> progressGroup;
    private final Supplier<? extends Map<TopicPartition, String>> transactionalIds;

    /**
     * @param clientProperties the settings of the clients of the cluster written to (its connection settings are used)
     * @param written          the partitions this run writes to now
     * @param progressGroup    the group every commit writes progress to, if any
     * @param transactionalIds the transactional ids of this run's producers now, by the partition each writes (none at
     *                         least once)
     */
    public TargetRoles(Map<String, ?> clientProperties, Supplier<? extends Collection<TopicPartition>> written,
            Optional<String> progressGroup, Supplier<? extends Map<TopicPartition, String>> transactionalIds) {
        this(null, clientProperties, written, progressGroup, transactionalIds);
    }

    /**
     * As {@link #TargetRoles(Map, Supplier, Optional, Supplier)}, asking through {@code admin}, a run's own admin client
     * of the cluster, which it keeps and closes: one already connected to its brokers chooses one that answers.
     */
    public TargetRoles(Admin admin, Map<String, ?> clientProperties,
            Supplier<? extends Collection<TopicPartition>> written, Optional<String> progressGroup,
            Supplier<? extends Map<TopicPartition, String>> transactionalIds) {
        this.admin = admin;
        this.owned = admin == null;
        this.connection = ClusterConnection.of(clientProperties);
        this.connection.put(CommonClientConfigs.REQUEST_TIMEOUT_MS_CONFIG, (int) REQUEST_TIMEOUT.toMillis());
        // a connection to a broker that takes no packets is given up as soon, not after Kafka's 10 s
        this.connection.put(CommonClientConfigs.SOCKET_CONNECTION_SETUP_TIMEOUT_MS_CONFIG, REQUEST_TIMEOUT.toMillis());
        this.connection.put(CommonClientConfigs.SOCKET_CONNECTION_SETUP_TIMEOUT_MAX_MS_CONFIG,
                REQUEST_TIMEOUT.toMillis());
        this.written = written;
        this.progressGroup = progressGroup;
        this.transactionalIds = transactionalIds;
    }

    /**
     * Makes the admin client now and has it learn the cluster's brokers and connect to each while they all answer (in
     * the background: one small request per broker), so that a question asked during a fault needs no bootstrap
     * address, which may be the broker that does not answer, and goes to a broker already connected and idle rather
     * than to one it first connects to: measured, a fresh admin client's questions went to the black-holed broker for
     * the first 15 s.
     */
    public synchronized TargetRoles prepare() {
        if (closed) {
            return this;
        }
        try {
            if (admin == null) {
                admin = Admin.create(connection);
            }
            // the admin client sends a question to a connected broker before it connects to another, even one that
            // holds its requests: connected to every broker, a question held by one goes to another idle one next
            Admin connecting = admin;
            admin.describeCluster().nodes().toCompletionStage().thenAccept(nodes -> connecting.describeConfigs(
                    nodes.stream().map(n -> new ConfigResource(ConfigResource.Type.BROKER, n.idString())).toList()));
        } catch (RuntimeException e) {
            // an address that does not resolve yet: the first question makes the client again
        }
        return this;
    }

    @Override
    public synchronized CompletableFuture<TargetBrokers.Answer> ask(Duration timeout) {
        if (closed) {
            return CompletableFuture.failedFuture(new IllegalStateException("closed"));
        }
        if (admin == null) {
            try {
                admin = Admin.create(connection);
            } catch (RuntimeException e) {
                // no bootstrap address resolves while the target is away: no answer this time, ask again later
                return CompletableFuture.failedFuture(e);
            }
        }
        int millis = (int) Math.min(Integer.MAX_VALUE, timeout.toMillis());
        Set<TopicPartition> partitions = new HashSet<>(written.get());
        Map<TopicPartition, String> ids = Map.copyOf(transactionalIds.get());
        Set<String> topics = new TreeSet<>();
        partitions.forEach(p -> topics.add(p.topic()));
        progressGroup.ifPresent(g -> topics.add(GROUPS_TOPIC));
        if (!ids.isEmpty()) {
            topics.add(TRANSACTIONS_TOPIC);
        }
        // each question asked twice at once: the admin client sends the second to another broker than the first
        // (the one with fewer requests in flight), so a broker that holds requests cannot hold the answer too
        CompletableFuture<Collection<Node>> brokers = firstAnswer(
                () -> admin.describeCluster(new DescribeClusterOptions().timeoutMs(millis)).nodes()
                        .toCompletionStage().toCompletableFuture());
        CompletableFuture<Map<String, TopicDescription>> descriptions = topics.isEmpty()
                ? CompletableFuture.completedFuture(Map.of())
                : firstAnswer(() -> describe(topics, millis));
        return descriptions.thenCombine(brokers, (described, nodes) -> answer(nodes, described, partitions, ids));
    }

    /**
     * The topics' descriptions, each on its own: one this process may not describe (an internal topic under ACLs) or
     * that was deleted leaves the others' leaders known; fails only when none could be described.
     */
    private CompletableFuture<Map<String, TopicDescription>> describe(Set<String> topics, int millis) {
        Map<String, CompletableFuture<TopicDescription>> each = new TreeMap<>();
        admin.describeTopics(topics, new DescribeTopicsOptions().timeoutMs(millis)).topicNameValues()
                .forEach((topic, f) -> each.put(topic, f.toCompletionStage().toCompletableFuture()));
        return CompletableFuture.allOf(each.values().stream().map(f -> f.handle((d, e) -> d))
                .toArray(CompletableFuture[]::new)).thenApply(all -> {
                    Map<String, TopicDescription> described = new TreeMap<>();
                    each.forEach((topic, f) -> {
                        if (!f.isCompletedExceptionally()) {
                            described.put(topic, f.join());
                        }
                    });
                    if (described.isEmpty()) {
                        throw new IllegalStateException("no topic could be described");
                    }
                    return described;
                });
    }

    /** Asks twice at once; the first answer wins, and it fails only when both fail. */
    private static <T> CompletableFuture<T> firstAnswer(Supplier<CompletableFuture<T>> question) {
        CompletableFuture<T> first = new CompletableFuture<>();
        CompletableFuture<T> one = question.get();
        CompletableFuture<T> other = question.get();
        one.whenComplete((v, e) -> settle(first, v, e, other));
        other.whenComplete((v, e) -> settle(first, v, e, one));
        return first;
    }

    private static <T> void settle(CompletableFuture<T> first, T value, Throwable error, CompletableFuture<T> other) {
        if (error == null) {
            first.complete(value);
        } else if (other.isCompletedExceptionally()) {
            first.completeExceptionally(error);
        }
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (admin != null && owned) {
            admin.close(Duration.ZERO); // its answers are of no use any more: a pending question is dropped
        }
    }

    private TargetBrokers.Answer answer(Collection<Node> nodes, Map<String, TopicDescription> descriptions,
            Set<TopicPartition> partitions, Map<TopicPartition, String> ids) {
        Map<Integer, String> brokers = new TreeMap<>();
        nodes.forEach(n -> brokers.put(n.id(), n.host() + ":" + n.port()));
        Map<TopicPartition, Integer> leaders = new HashMap<>();
        for (TopicPartition p : partitions) {
            leaderOf(descriptions.get(p.topic()), p.partition()).ifPresent(leader -> leaders.put(p, leader));
        }
        Optional<TargetBrokers.Coordinator> group = progressGroup.flatMap(g ->
                coordinator(descriptions.get(GROUPS_TOPIC), g).map(c -> new TargetBrokers.Coordinator(g, c)));
        Map<TopicPartition, Integer> transactions = new HashMap<>();
        ids.forEach((p, id) -> coordinator(descriptions.get(TRANSACTIONS_TOPIC), id)
                .ifPresent(c -> transactions.put(p, c)));
        return new TargetBrokers.Answer(brokers, leaders, group, transactions);
    }

    /** The leader of the partition of an internal topic that Kafka places {@code id}'s coordinator on. */
    private static Optional<Integer> coordinator(TopicDescription internal, String id) {
        if (internal == null || internal.partitions().isEmpty()) {
            return Optional.empty();
        }
        int hash = id.hashCode();
        // as the broker places it: the hash's absolute value (MIN_VALUE taken as 0) modulo the partition count
        return leaderOf(internal, (hash == Integer.MIN_VALUE ? 0 : Math.abs(hash)) % internal.partitions().size());
    }

    private static Optional<Integer> leaderOf(TopicDescription description, int partition) {
        if (description == null) {
            return Optional.empty();
        }
        for (TopicPartitionInfo info : description.partitions()) {
            if (info.partition() == partition && info.leader() != null && !info.leader().isEmpty()) {
                return Optional.of(info.leader().id());
            }
        }
        return Optional.empty();
    }
}
