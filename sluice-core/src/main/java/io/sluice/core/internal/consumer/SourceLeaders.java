package io.sluice.core.internal.consumer;

import static io.sluice.core.internal.EngineLog.LOG;

import io.sluice.core.commit.Silence;
import java.time.Duration;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.WakeupException;

/**
 * Which assigned partitions have no leader in the source cluster (the brokers that hold them are down, or they lost
 * every in-sync replica), from the consumer's metadata. The cluster answers (its other brokers do), so the source watch
 * ({@link SourceReach}) says nothing, while such a partition is neither read nor its lag current: its line of the
 * status stood still without a word. Said once when a partition has had no leader for the grace period, and once when it
 * has one again.
 *
 * <p>Threading: the consumer thread looks ({@link #look}: the metadata its consumer holds, a request only for a topic
 * it holds nothing for); {@link #withoutLeader} from any thread.
 */
final class SourceLeaders {

    /** As the source watch's: long past a leader election, short beside what an operator waits for. */
    static final Duration GRACE = SourceReach.GRACE;
    /** The metadata changes on the consumer's refreshes, not per poll: a look twice a second is enough. */
    private static final long EVERY_NANOS = Duration.ofMillis(500).toNanos();

    private final Consumer<?, ?> consumer;
    private final String where;
    private final Duration grace;
    private final Map<TopicPartition, Silence> silences = new HashMap<>();
    private long lookedAt;
    /** The assigned partitions without a leader at the last look with something to go by. */
    private Set<TopicPartition> leaderless = Set.of();
    /** The partitions said to have no leader at the last look, with how long: what other threads read. */
    private volatile Map<TopicPartition, Duration> said = Map.of();

    /** @param where the source cluster as the user named it (its bootstrap servers) */
    SourceLeaders(Consumer<?, ?> consumer, String where, Duration grace) {
        this.consumer = consumer;
        this.where = where;
        this.grace = grace;
    }

    /** Consumer thread, every loop: the partitions assigned now. */
    void look(long now, Set<TopicPartition> assigned) {
        if (lookedAt != 0 && now - lookedAt < EVERY_NANOS) {
            return;
        }
        lookedAt = now;
        silences.keySet().retainAll(assigned);
        leaderless = leaderless(assigned, leaderless);
        Map<TopicPartition, Duration> saying = new TreeMap<>(
                java.util.Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition));
        for (TopicPartition tp : assigned) {
            Silence silence = silences.computeIfAbsent(tp, p -> new Silence(grace));
            switch (silence.look(now, !leaderless.contains(tp), true)) {
                case BEGAN -> LOG.warn("source partition {} has no leader in its cluster ({}) for {} s: the brokers "
                        + "that hold it are down, or it lost every in-sync replica. It is not read and its lag is as "
                        + "of its last answer; the other partitions go on, and it goes on when it has a leader again",
                        tp, where, silence.seconds());
                case ENDED -> LOG.info("source partition {} has a leader again, after {} s; reading it goes on", tp,
                        silence.seconds());
                case NONE -> { }
            }
            silence.length(now).ifPresent(d -> saying.put(tp, d));
        }
        said = saying.isEmpty() ? Map.of() : Collections.unmodifiableMap(saying);
    }

    /** The assigned partitions said to have no leader at the last look, with how long; any thread. */
    Map<TopicPartition, Duration> withoutLeader() {
        return said;
    }

    /** The consumer is closing: nothing it sees from now on says anything about the cluster. */
    void closing() {
        said = Map.of();
    }

    /**
     * The assigned partitions whose topic's metadata the consumer holds and names no leader for; for a topic it holds
     * nothing for (a request at once, answered or not), those of {@code before}: a topic left out of a response is not
     * a leader found again.
     */
    private Set<TopicPartition> leaderless(Set<TopicPartition> assigned, Set<TopicPartition> before) {
        Set<String> topics = new HashSet<>();
        assigned.forEach(tp -> topics.add(tp.topic()));
        Set<TopicPartition> none = new HashSet<>();
        for (String topic : topics) {
            List<PartitionInfo> infos;
            try {
                infos = consumer.partitionsFor(topic, Duration.ZERO); // from the metadata it holds
            } catch (TimeoutException | WakeupException e) {
                infos = null; // not held (its request not answered at once), or being woken: nothing to go by
            }
            if (infos == null || infos.isEmpty()) {
                before.stream().filter(tp -> tp.topic().equals(topic) && assigned.contains(tp)).forEach(none::add);
                continue;
            }
            for (PartitionInfo info : infos) {
                TopicPartition tp = new TopicPartition(info.topic(), info.partition());
                if (assigned.contains(tp) && (info.leader() == null || info.leader().isEmpty())) {
                    none.add(tp);
                }
            }
        }
        return none;
    }
}
