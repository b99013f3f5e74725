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
import org.apache.kafka.clients.consumer.ConsumerConfig;
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
 * <p>A broker is said once it has owed an answer for the grace period while another connection of the consumer
 * answered within the last {@link #HEARD_LATELY} (another broker's fetches, the group coordinator's heartbeats, a
 * metadata answer); when no broker answers, the cluster is silent, which is the cluster watch's to
 * say, and this says nothing. It is said again when it answers, or when nothing has been read from it for the grace
 * period (its partitions paused or moved): never forgotten without a word. A broker owes nothing while none of its
 * partitions is read (paused, revoked: a short pause neither counts nor hides a silence) or while the consumer's
 * position moves in one of them (it still hands on records fetched earlier, and asks that broker nothing meanwhile),
 * and a gap between looks longer than {@link Silence#STALLED} was this process not running, as for {@link Silence}.
 * The caller has the words.
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

        /**
         * Nothing has been read from {@code broker}, said silent, for the grace period (its partitions were paused,
         * revoked or moved): its silence, {@code seconds} long when the reading stopped, is no longer watched.
         */
        void noLongerRead(Node broker, long seconds);
    }

    /** A fetch the broker holds at a partition's end lasts half a second by default: a look twice a second. */
    private static final long EVERY_NANOS = Duration.ofMillis(500).toNanos();
    /**
     * How recently another broker must have answered for a silence to be one broker's, not the cluster's: several
     * fetch waits (half a second each by default, a second or two when set higher), so that one look that fell
     * between two answers does not decide.
     */
    static final Duration HEARD_LATELY = Duration.ofSeconds(5);
    /** How often the consumer's metrics are scanned for connections made since (a metadata answer, a new leader). */
    private static final Duration RESCAN = Duration.ofSeconds(10);
    private static final String NODE_METRICS = "consumer-node-metrics";
    private static final String FETCH_METRICS = "consumer-fetch-manager-metrics";

    private final Consumer<?, ?> consumer;
    private final Duration grace;
    private final boolean readsFromFollowers;
    private final Words words;
    private final Map<Integer, Broker> brokers = new HashMap<>();
    /** Per connection (a broker's id, a group coordinator's alias, a bootstrap address), its responses. */
    private final Map<Integer, Connection> connections = new HashMap<>();
    private long connectionsScannedAt;
    private boolean connectionsScanned;
    private long lookedAt;
    /** The brokers said to be silent at the last look, with how long: what other threads read. */
    private volatile Map<Integer, Duration> said = Map.of();
    /** The partitions read from those brokers, with the broker's id: what other threads read. */
    private volatile Map<TopicPartition, Integer> saidPartitions = Map.of();

    /** What is known of one broker between looks; the consumer's thread only. */
    private static final class Broker {
        Node node;
        /** When it last answered anything (its connection's count grew). */
        long heardAt;
        boolean heard;
        /** Since when it owes an answer without one: its last answer, or when it was last asked for records again. */
        long owedSince;
        /** Whether partitions were read from it at the last look. */
        boolean watched;
        /** When partitions stopped being read from it. */
        long unwatchedAt;
        /** Whether partitions were ever read from it: the first time, it owes from then. */
        boolean everWatched;
        /** The consumer's positions of its partitions at the last look. */
        final Map<TopicPartition, Long> positions = new HashMap<>();

        /**
         * Whether the consumer's position moved in one of {@code partitions} since the last look: records of this
         * broker were handed on. The consumer asks a broker nothing for a partition whose fetched records it still
         * holds, so a slow reader of a large fetch is not a broker that does not answer.
         */
        boolean handingOn(Consumer<?, ?> consumer, Set<TopicPartition> partitions) {
            boolean moved = false;
            positions.keySet().retainAll(partitions);
            for (TopicPartition tp : partitions) {
                long position;
                try {
                    position = consumer.position(tp, Duration.ZERO);
                } catch (RuntimeException unknownNow) {
                    continue; // being reset or validated: nothing to go by at this look
                }
                Long before = positions.put(tp, position);
                moved |= before != null && position != before;
            }
            return moved;
        }
        /** Since when its silence said has lasted: the answer it owed from then never came. */
        long silentSince;
        boolean said;
    }

    /**
     * @param readsFromFollowers whether the consumer has a rack ({@code client.rack}): then a follower may serve its
     *                           fetches, found from the consumer's per-partition metrics at each look
     */
    public BrokerWatch(Consumer<?, ?> consumer, Duration grace, boolean readsFromFollowers, Words words) {
        this.consumer = consumer;
        this.grace = grace;
        this.readsFromFollowers = readsFromFollowers;
        this.words = words;
    }

    /**
     * Whether a consumer with these settings has a rack ({@code client.rack}): a follower in it may then serve its
     * fetches (KIP-392), which the watch must follow ({@code readsFromFollowers}).
     */
    public static boolean readsFromFollowers(Map<String, ?> consumerProperties) {
        Object rack = consumerProperties.get(ConsumerConfig.CLIENT_RACK_CONFIG);
        return rack != null && !String.valueOf(rack).isBlank();
    }

    /**
     * Consumer's thread, as often as it likes (a look is taken at most twice a second, and only then is
     * {@code fetching} asked for): the partitions it asks records for now (assigned and not paused).
     */
    public void look(long now, Supplier<Set<TopicPartition>> fetchingNow) {
        if (lookedAt != 0 && now - lookedAt < EVERY_NANOS) {
            return;
        }
        // longer between two looks, and it was this process that did not run (SIGSTOP, a machine asleep)
        boolean stalled = lookedAt != 0 && now - lookedAt >= Silence.STALLED.toNanos();
        lookedAt = now;
        Map<Integer, Node> nodes = new HashMap<>();
        Map<Integer, Set<TopicPartition>> reading = readFrom(fetchingNow.get(), nodes);
        reading.keySet().forEach(id -> brokers.computeIfAbsent(id, i -> new Broker()));
        hearConnections(now, reading.keySet());
        for (Map.Entry<Integer, Broker> e : brokers.entrySet()) {
            Broker b = e.getValue();
            Connection c = connections.get(e.getKey());
            if (c != null && c.heard && c.heardAt == now) {
                b.heardAt = now;
                b.heard = true;
                b.owedSince = now;
            }
            if (stalled) {
                b.owedSince = now;
            }
        }
        Map<Integer, Duration> saying = new TreeMap<>();
        Map<TopicPartition, Integer> unread = new HashMap<>();
        for (Map.Entry<Integer, Broker> e : brokers.entrySet()) {
            int id = e.getKey();
            Broker b = e.getValue();
            Set<TopicPartition> partitions = reading.get(id);
            if (partitions != null) {
                b.node = nodes.get(id);
            }
            if (b.said && b.heard && b.heardAt == now) {
                b.said = false;
                words.answersAgain(b.node, (now - b.silentSince) / 1_000_000_000L);
            }
            if (partitions == null) {
                noLongerRead(b, now);
                if (b.said) {
                    saying.put(id, Duration.ofNanos(now - b.silentSince)); // through a pause, still not heard from
                }
                continue;
            }
            if (!b.watched) {
                // asked for records again after a while: it owes an answer from now, not from before; after a short
                // pause (a read-rate limit, a full buffer) the count goes on, or pauses would hide a silence for ever
                if (!b.everWatched || now - b.unwatchedAt >= HEARD_LATELY.toNanos()) {
                    b.owedSince = b.heard ? Math.max(b.owedSince, now - EVERY_NANOS) : now - EVERY_NANOS;
                } else {
                    b.owedSince += now - b.unwatchedAt; // the pause itself owed nothing
                }
                b.watched = true;
                b.everWatched = true;
            }
            if (b.handingOn(consumer, partitions)) {
                // its records are still being handed on (a fetch's worth held in the consumer): nothing asked of it
                b.owedSince = now;
            }
            long silent = now - b.owedSince;
            if (!b.said && silent >= grace.toNanos() && othersHeard(id, now)) {
                // no other broker heard from lately is the cluster's silence, said by the cluster's watch
                b.said = true;
                b.silentSince = b.owedSince;
                words.silent(b.node, partitions, silent / 1_000_000_000L);
            }
            if (b.said) {
                saying.put(id, Duration.ofNanos(now - b.silentSince));
                partitions.forEach(tp -> unread.put(tp, id));
            }
        }
        saidPartitions = Map.copyOf(unread);
        said = saying.isEmpty() ? Map.of() : Collections.unmodifiableMap(saying);
    }

    /**
     * Nothing is read from broker {@code b} now (its partitions paused, revoked or moved): it owes nothing meanwhile.
     * A silence said is kept through a pause; once nothing has been read from it for the grace period, it is said to
     * be no longer watched, in words, rather than dropped.
     */
    private void noLongerRead(Broker b, long now) {
        if (b.watched) {
            b.watched = false;
            b.unwatchedAt = now;
        }
        if (b.said && now - b.unwatchedAt >= grace.toNanos()) {
            b.said = false;
            words.noLongerRead(b.node, (b.unwatchedAt - b.silentSince) / 1_000_000_000L);
        }
    }

    /**
     * Whether a connection other than broker {@code id}'s answered anything within {@link #HEARD_LATELY}: another
     * broker's fetches, or the group's coordinator's heartbeats (its connection's id is {@code Integer.MAX_VALUE}
     * minus the broker's, so the coordinator's alias of broker {@code id} itself does not count).
     */
    private boolean othersHeard(int id, long now) {
        for (Map.Entry<Integer, Connection> e : connections.entrySet()) {
            int other = e.getKey();
            Connection c = e.getValue();
            if (other != id && other != Integer.MAX_VALUE - id && c.heard
                    && now - c.heardAt <= HEARD_LATELY.toNanos()) {
                return true;
            }
        }
        return false;
    }

    /** One connection of the consumer: its count of responses, as its per-node metric says. */
    private static final class Connection {
        final Metric responses;
        double seen = Double.NaN;
        long heardAt;
        boolean heard;

        Connection(Metric responses) {
            this.responses = responses;
        }
    }

    /**
     * Reads every connection's count; one that grew answered at {@code now}. The consumer's metrics are scanned for
     * connections only when a broker read from has none yet, or every {@link #RESCAN}: a connection's metric, once
     * made, stays until the consumer closes.
     */
    private void hearConnections(long now, Set<Integer> readFrom) {
        boolean missing = false;
        for (Integer id : readFrom) {
            missing |= !connections.containsKey(id);
        }
        if (!connectionsScanned || missing && now - connectionsScannedAt >= EVERY_NANOS
                || now - connectionsScannedAt >= RESCAN.toNanos()) {
            connectionsScanned = true;
            connectionsScannedAt = now;
            for (Map.Entry<MetricName, ? extends Metric> e : consumer.metrics().entrySet()) {
                MetricName name = e.getKey();
                Integer node = ClientMetrics.node(name, NODE_METRICS);
                if (name.name().equals("response-total") && node != null) {
                    connections.computeIfAbsent(node, i -> new Connection(e.getValue()));
                }
            }
        }
        for (Connection c : connections.values()) {
            double count = ClientMetrics.value(c.responses);
            if (!Double.isNaN(count) && !Double.isNaN(c.seen) && count > c.seen) {
                c.heardAt = now;
                c.heard = true;
            }
            c.seen = count;
        }
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
    private Map<Integer, Set<TopicPartition>> readFrom(Set<TopicPartition> fetching, Map<Integer, Node> nodes) {
        Set<String> topics = new HashSet<>();
        fetching.forEach(tp -> topics.add(tp.topic()));
        Map<TopicPartition, Integer> readReplicas = readsFromFollowers ? readReplicas(fetching) : Map.of();
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
}
