package io.sluice.core.commit;

import io.sluice.core.ClusterConnection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
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

/**
 * Asks the cluster a run writes to which of its brokers this run needs, and for what: the leaders of the partitions
 * it writes, the coordinator of its progress group (every commit writes the progress there), the coordinators of its
 * transactions. Two metadata questions that any broker answers (the brokers, and the topics with their leaders,
 * internal ones included): a coordinator is the leader of the partition of {@code __consumer_offsets} or
 * {@code __transaction_state} that its id hashes to, as Kafka places them, so no question waits on a coordinator
 * that may be the broker not answering. An answer is also proof that the cluster answers.
 *
 * <p>It asks through an admin client of its own, made at the first question (most runs never ask one), that gives up
 * a request a broker holds after {@link #REQUEST_TIMEOUT}, shorter than a question: its first metadata question may go
 * to the very broker that does not answer (a bootstrap address), and with Kafka's 30 s every question until then
 * timed out, so the whole target was called silent (measured with a merge whose output broker was black-holed).
 *
 * <p>Threading: {@link #ask} and {@link #close} from any thread, under this object's lock; the admin client's thread
 * completes the answers.
 */
public final class TargetRoles implements TargetBrokers.Probe, AutoCloseable {

    /** Shorter than a question ({@link TargetBrokers#QUESTION}): the next question goes to another broker. */
    static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(4);

    /** Where Kafka keeps the groups' state and the transactions' state: their coordinators lead these partitions. */
    private static final String GROUPS_TOPIC = "__consumer_offsets";
    private static final String TRANSACTIONS_TOPIC = "__transaction_state";

    private final Map<String, Object> connection;
    private Admin admin;
    private boolean closed;
    private final Supplier<? extends Collection<TopicPartition>> written;
    private final Optional<String> progressGroup;
    private final Supplier<? extends Collection<String>> transactionalIds;

    /**
     * @param clientProperties the settings of the clients of the cluster written to (its connection settings are used)
     * @param written          the partitions this run writes to now
     * @param progressGroup    the group every commit writes progress to, if any
     * @param transactionalIds the transactional ids of this run's producers now (none at least once)
     */
    public TargetRoles(Map<String, ?> clientProperties, Supplier<? extends Collection<TopicPartition>> written,
            Optional<String> progressGroup, Supplier<? extends Collection<String>> transactionalIds) {
        this.connection = ClusterConnection.of(clientProperties);
        this.connection.put(CommonClientConfigs.REQUEST_TIMEOUT_MS_CONFIG, (int) REQUEST_TIMEOUT.toMillis());
        this.written = written;
        this.progressGroup = progressGroup;
        this.transactionalIds = transactionalIds;
    }

    @Override
    public synchronized CompletableFuture<TargetBrokers.Answer> ask(Duration timeout) {
        if (closed) {
            return CompletableFuture.failedFuture(new IllegalStateException("closed"));
        }
        if (admin == null) {
            admin = Admin.create(connection);
        }
        int millis = (int) Math.min(Integer.MAX_VALUE, timeout.toMillis());
        Set<TopicPartition> partitions = new HashSet<>(written.get());
        Collection<String> ids = List.copyOf(transactionalIds.get());
        Set<String> topics = new TreeSet<>();
        partitions.forEach(p -> topics.add(p.topic()));
        progressGroup.ifPresent(g -> topics.add(GROUPS_TOPIC));
        if (!ids.isEmpty()) {
            topics.add(TRANSACTIONS_TOPIC);
        }
        CompletableFuture<Collection<Node>> brokers = admin.describeCluster(
                new DescribeClusterOptions().timeoutMs(millis)).nodes().toCompletionStage().toCompletableFuture();
        // each topic on its own: one this process may not describe (an internal topic under ACLs) or that was deleted
        // leaves the others' leaders known
        Map<String, CompletableFuture<TopicDescription>> each = new TreeMap<>();
        if (!topics.isEmpty()) {
            admin.describeTopics(topics, new DescribeTopicsOptions().timeoutMs(millis)).topicNameValues()
                    .forEach((topic, f) -> each.put(topic, f.toCompletionStage().toCompletableFuture()
                            .handle((description, e) -> e == null ? description : null)));
        }
        return CompletableFuture.allOf(each.values().toArray(CompletableFuture[]::new)).thenCombine(brokers,
                (all, nodes) -> {
                    Map<String, TopicDescription> descriptions = new TreeMap<>();
                    each.forEach((topic, f) -> {
                        TopicDescription d = f.join();
                        if (d != null) {
                            descriptions.put(topic, d);
                        }
                    });
                    return answer(nodes, descriptions, partitions, ids);
                });
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (admin != null) {
            admin.close(Duration.ofSeconds(5));
        }
    }

    private TargetBrokers.Answer answer(Collection<Node> nodes, Map<String, TopicDescription> descriptions,
            Set<TopicPartition> partitions, Collection<String> ids) {
        Map<Integer, String> brokers = new TreeMap<>();
        nodes.forEach(n -> brokers.put(n.id(), n.host() + ":" + n.port()));
        Map<Integer, Set<String>> leads = new TreeMap<>();
        for (TopicPartition p : partitions) {
            leaderOf(descriptions.get(p.topic()), p.partition())
                    .ifPresent(leader -> leads.computeIfAbsent(leader, l -> new TreeSet<>()).add(p.toString()));
        }
        Map<Integer, List<String>> roles = new TreeMap<>();
        leads.forEach((leader, led) -> roles.computeIfAbsent(leader, l -> new ArrayList<>())
                .add("leads " + led + ", which this process writes to"));
        progressGroup.flatMap(g -> coordinator(descriptions.get(GROUPS_TOPIC), g))
                .ifPresent(c -> roles.computeIfAbsent(c, l -> new ArrayList<>())
                        .add("coordinates the progress group '" + progressGroup.get() + "', which every commit writes to"));
        Map<Integer, Integer> transactions = new TreeMap<>();
        for (String id : ids) {
            coordinator(descriptions.get(TRANSACTIONS_TOPIC), id)
                    .ifPresent(c -> transactions.merge(c, 1, Integer::sum));
        }
        transactions.forEach((c, n) -> roles.computeIfAbsent(c, l -> new ArrayList<>())
                .add("coordinates " + n + " of this process's transactions"));
        return new TargetBrokers.Answer(brokers, roles);
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
