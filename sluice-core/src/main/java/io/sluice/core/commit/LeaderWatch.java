package io.sluice.core.commit;

import java.time.Duration;
import java.util.Collections;
import java.util.Comparator;
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
 * Which of the partitions a consumer reads have no leader in their cluster (the brokers that hold them are down, or
 * they lost every in-sync replica), from the metadata the consumer holds: the rule behind the engine's watch on its
 * source and the merge's on each input. The cluster answers (its other brokers do), so a watch on the cluster's
 * silence says nothing, while such a partition is neither read nor its end known. A partition is said once it has had
 * no leader for the grace period ({@link Silence}), and once when it has one again; the caller has the words.
 *
 * <p>Threading: the consumer's thread looks ({@link #look}: what its consumer holds, a request only for a topic it
 * holds nothing for); {@link #withoutLeader} from any thread.
 */
public final class LeaderWatch {

    /** What a look has to say of one partition, in the caller's words. */
    public interface Words {
        /** {@code partition} has had no leader for {@code seconds}: said once. */
        void noLeader(TopicPartition partition, long seconds);

        /** {@code partition} has a leader again, after {@code seconds} without one. */
        void leaderAgain(TopicPartition partition, long seconds);
    }

    /** The metadata changes on the consumer's refreshes, not per poll: a look twice a second is enough. */
    private static final long EVERY_NANOS = Duration.ofMillis(500).toNanos();
    private static final Comparator<TopicPartition> ORDER = Comparator.comparing(TopicPartition::topic)
            .thenComparingInt(TopicPartition::partition);

    private final Consumer<?, ?> consumer;
    private final Duration grace;
    private final Words words;
    private final Map<TopicPartition, Silence> silences = new HashMap<>();
    private long lookedAt;
    /** The assigned partitions without a leader at the last look with something to go by. */
    private Set<TopicPartition> leaderless = Set.of();
    /** The partitions said to have no leader at the last look, with how long: what other threads read. */
    private volatile Map<TopicPartition, Duration> said = Map.of();

    public LeaderWatch(Consumer<?, ?> consumer, Duration grace, Words words) {
        this.consumer = consumer;
        this.grace = grace;
        this.words = words;
    }

    /**
     * Consumer's thread, as often as it likes (a look is taken at most twice a second): the partitions it reads now.
     * Returns those of them without a leader as of the last look, said or not yet: what cannot answer now.
     */
    public Set<TopicPartition> look(long now, Set<TopicPartition> assigned) {
        if (lookedAt != 0 && now - lookedAt < EVERY_NANOS) {
            return leaderless;
        }
        lookedAt = now;
        silences.keySet().retainAll(assigned);
        leaderless = leaderless(assigned, leaderless);
        Map<TopicPartition, Duration> saying = new TreeMap<>(ORDER);
        for (TopicPartition tp : assigned) {
            Silence silence = silences.computeIfAbsent(tp, p -> new Silence(grace));
            switch (silence.look(now, !leaderless.contains(tp), true)) {
                case BEGAN -> words.noLeader(tp, silence.seconds());
                case ENDED -> words.leaderAgain(tp, silence.seconds());
                case NONE -> { }
            }
            silence.length(now).ifPresent(d -> saying.put(tp, d));
        }
        said = saying.isEmpty() ? Map.of() : Collections.unmodifiableMap(saying);
        return leaderless;
    }

    /** The partitions said to have no leader at the last look, with how long, in topic and partition order. */
    public Map<TopicPartition, Duration> withoutLeader() {
        return said;
    }

    /** The consumer is closing: nothing it sees from now on says anything about the cluster. */
    public void closing() {
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
                infos = consumer.partitionsFor(topic, Duration.ZERO);
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
        return Set.copyOf(none);
    }
}
