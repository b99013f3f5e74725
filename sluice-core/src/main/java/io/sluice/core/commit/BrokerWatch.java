package io.sluice.core.commit;

import java.time.Duration;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.WakeupException;

/**
 * Which brokers a consumer fetches from have stopped answering it while the cluster's other brokers still do: a
 * network fault between this process and one broker, or a broker frozen (a long pause, a hung disk) before the
 * controller fenced it. Its partitions keep their leader in the metadata, so a {@link LeaderWatch} says nothing, and
 * the cluster answers, so a watch on the cluster's silence says nothing either, while those partitions are not read.
 * Each broker's answers are its connection's count of responses (the consumer's per-broker metrics); a broker that
 * leads a partition being fetched owes an answer at least every fetch wait, even at the partition's end (or the
 * follower a consumer with a rack reads from instead, which then owes it).
 *
 * <p>A broker is said once it has not answered for the grace period ({@link Silence}) while another broker of the
 * cluster did, and once when it answers again; when no broker answers, the cluster is silent, which is the cluster
 * watch's to say, and this says nothing. The caller has the words.
 *
 * <p>Threading: the consumer's thread looks ({@link #look}: the metadata and metrics its consumer holds, never a
 * request); {@link #silentBrokers} from any thread.
 */
public final class BrokerWatch {

    /** What a look has to say of one broker, in the caller's words. */
    public interface Words {
        /**
         * {@code broker}, the one {@code partitions} are read from (their leader, or the follower a consumer with a
         * rack reads from), has not answered for {@code seconds}.
         */
        void silent(Node broker, Set<TopicPartition> partitions, long seconds);

        /** {@code broker} answers again, after {@code seconds} without an answer. */
        void answersAgain(Node broker, long seconds);
    }

    /** A fetch the broker holds at a partition's end lasts half a second by default: a look twice a second. */
    private static final long EVERY_NANOS = Duration.ofMillis(500).toNanos();
    private static final String NODE_METRICS = "consumer-node-metrics";
    private static final String FETCH_METRICS = "consumer-fetch-manager-metrics";

    private final Consumer<?, ?> consumer;
    private final Duration grace;
    private final Words words;
    private final Map<Integer, Silence> silences = new HashMap<>();
    /** Per broker id, its response count at the last look. */
    private final Map<Integer, Double> responsesSeen = new HashMap<>();
    private final Map<Integer, Metric> responseMetrics = new HashMap<>();
    private long lookedAt;
    /** The brokers said to be silent at the last look, with how long: what other threads read. */
    private volatile Map<Integer, Duration> said = Map.of();
    /** The partitions those brokers lead, with the broker's id: what other threads read. */
    private volatile Map<TopicPartition, Integer> saidPartitions = Map.of();

    public BrokerWatch(Consumer<?, ?> consumer, Duration grace, Words words) {
        this.consumer = consumer;
        this.grace = grace;
        this.words = words;
    }

    /**
     * Consumer's thread, as often as it likes (a look is taken at most twice a second, and only then is
     * {@code fetching} asked for): the partitions it asks records for now (assigned and not paused).
     */
    public void look(long now, Supplier<Set<TopicPartition>> fetchingNow) {
        if (lookedAt != 0 && now - lookedAt < EVERY_NANOS) {
            return;
        }
        lookedAt = now;
        Set<TopicPartition> fetching = fetchingNow.get();
        Map<Integer, Node> nodes = new HashMap<>();
        Map<Integer, Set<TopicPartition>> leading = leaders(fetching, nodes);
        Set<Integer> answered = new HashSet<>();
        for (Integer id : leading.keySet()) {
            if (answeredSinceLastLook(id)) {
                answered.add(id);
            }
        }
        // no broker answering is the cluster's silence, said by the cluster's watch: no broker is singled out
        boolean othersAnswer = !answered.isEmpty();
        silences.keySet().retainAll(leading.keySet());
        Map<Integer, Duration> saying = new TreeMap<>();
        Map<TopicPartition, Integer> unread = new HashMap<>();
        for (Map.Entry<Integer, Set<TopicPartition>> e : leading.entrySet()) {
            Integer id = e.getKey();
            Silence silence = silences.computeIfAbsent(id, i -> new Silence(grace));
            switch (silence.look(now, answered.contains(id), othersAnswer)) {
                case BEGAN -> words.silent(nodes.get(id), e.getValue(), silence.seconds());
                case ENDED -> words.answersAgain(nodes.get(id), silence.seconds());
                case NONE -> { }
            }
            silence.length(now).ifPresent(d -> {
                saying.put(id, d);
                e.getValue().forEach(tp -> unread.put(tp, id));
            });
        }
        saidPartitions = Map.copyOf(unread);
        said = saying.isEmpty() ? Map.of() : Collections.unmodifiableMap(saying);
    }

    /** The brokers said to be silent at the last look, by id, with how long. */
    public Map<Integer, Duration> silentBrokers() {
        return said;
    }

    /** The partitions read from the brokers of {@link #silentBrokers} (not read meanwhile), with the broker's id. */
    public Map<TopicPartition, Integer> partitionsOfSilentBrokers() {
        return saidPartitions;
    }

    /** The consumer is closing: nothing it sees from now on says anything about the cluster. */
    public void closing() {
        said = Map.of();
        saidPartitions = Map.of();
    }

    /**
     * Per broker id, the partitions of {@code fetching} the consumer reads from it, from the metadata it holds: the
     * leader, or the follower the leader named for a consumer with a rack ({@code client.rack}; the consumer's
     * {@code preferred-read-replica} metric), which then answers the fetches in the leader's place.
     */
    private Map<Integer, Set<TopicPartition>> leaders(Set<TopicPartition> fetching, Map<Integer, Node> nodes) {
        Set<String> topics = new HashSet<>();
        fetching.forEach(tp -> topics.add(tp.topic()));
        Map<TopicPartition, Integer> readReplicas = readReplicas(fetching);
        Map<Integer, Set<TopicPartition>> leading = new HashMap<>();
        for (String topic : topics) {
            List<PartitionInfo> infos;
            try {
                infos = consumer.partitionsFor(topic, Duration.ZERO);
            } catch (TimeoutException | WakeupException e) {
                continue; // not held now: nothing to go by for this topic at this look
            }
            for (PartitionInfo info : infos) {
                TopicPartition tp = new TopicPartition(info.topic(), info.partition());
                Node from = readFrom(info, readReplicas.get(tp));
                if (fetching.contains(tp) && from != null) {
                    nodes.put(from.id(), from);
                    leading.computeIfAbsent(from.id(), id -> new TreeSet<>(
                            (a, b) -> a.topic().equals(b.topic()) ? Integer.compare(a.partition(), b.partition())
                                    : a.topic().compareTo(b.topic()))).add(tp);
                }
            }
        }
        return leading;
    }

    /** The broker a partition is read from: its read replica when it has one among its replicas, else its leader. */
    private static Node readFrom(PartitionInfo info, Integer readReplica) {
        if (readReplica != null && readReplica >= 0 && info.replicas() != null) {
            for (Node replica : info.replicas()) {
                if (replica != null && replica.id() == readReplica) {
                    return replica;
                }
            }
            return null; // a replica the metadata does not show: nothing to go by
        }
        Node leader = info.leader();
        return leader == null || leader.isEmpty() ? null : leader;
    }

    /** The read replicas the consumer holds for {@code fetching} (-1: the leader), by its per-partition metric. */
    private Map<TopicPartition, Integer> readReplicas(Set<TopicPartition> fetching) {
        Map<TopicPartition, Integer> replicas = new HashMap<>();
        for (Map.Entry<MetricName, ? extends Metric> e : consumer.metrics().entrySet()) {
            MetricName name = e.getKey();
            if (!name.name().equals("preferred-read-replica") || !name.group().equals(FETCH_METRICS)) {
                continue;
            }
            String topic = name.tags().get("topic");
            String partition = name.tags().get("partition");
            if (topic == null || partition == null || !(e.getValue().metricValue() instanceof Number n)) {
                continue;
            }
            try {
                TopicPartition tp = new TopicPartition(topic, Integer.parseInt(partition));
                if (fetching.contains(tp)) {
                    replicas.put(tp, n.intValue());
                }
            } catch (NumberFormatException notAPartition) {
                // not one of the consumer's partition metrics
            }
        }
        return replicas;
    }

    /**
     * Whether broker {@code id}'s response count grew since the last look. A count that is not there yet (no
     * connection made) or went down (its metrics made again) is not an answer; the count it has is the next look's
     * base.
     */
    private boolean answeredSinceLastLook(int id) {
        double count = responses(id);
        Double before = responsesSeen.put(id, count);
        return !Double.isNaN(count) && before != null && !before.isNaN() && count > before;
    }

    private double responses(int id) {
        Metric metric = responseMetrics.get(id);
        if (metric == null) {
            String node = "node-" + id;
            for (Map.Entry<MetricName, ? extends Metric> e : consumer.metrics().entrySet()) {
                MetricName name = e.getKey();
                if (name.name().equals("response-total") && name.group().equals(NODE_METRICS)
                        && node.equals(name.tags().get("node-id"))) {
                    metric = e.getValue();
                    responseMetrics.put(id, metric);
                    break;
                }
            }
        }
        return metric != null && metric.metricValue() instanceof Number n ? n.doubleValue() : Double.NaN;
    }
}
