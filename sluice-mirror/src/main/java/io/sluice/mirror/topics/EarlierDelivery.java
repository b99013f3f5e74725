package io.sluice.mirror.topics;

import io.sluice.mirror.copy.TopicNaming;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsOptions;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The progress a mirror committed under its other delivery. Each delivery keeps a mirror's progress in its own place
 * (exactly once: the target's progress group, in the copies' transactions; at least once: the source group), so a
 * mirror whose {@code delivery} was changed found no progress and copied every record again from the source's
 * beginning (a new user's run: 3,000 records, then the same 3,000 again, and a warning that the mirror had copied
 * nothing there). At a claim, each partition now goes on from the later of the two commits: below either one, every
 * record is in the target. From exactly once to at least once nothing is copied twice; from at least once to exactly
 * once, the copies made after the last at-least-once commit are in the target twice, as after any restart at least
 * once.
 *
 * <p>Threading: the claim's thread (the engine's consumer thread); {@link #ask} returns at once.
 */
public final class EarlierDelivery {

    private static final Logger LOG = LoggerFactory.getLogger("io.sluice.mirror");

    private final Admin admin;
    private final String group;
    /** The partition the other delivery keeps a source partition's progress under. */
    private final Function<TopicPartition, TopicPartition> keyOf;
    private final String mirror;
    private final String earlier;
    private final String now;

    private EarlierDelivery(Admin admin, String group, Function<TopicPartition, TopicPartition> keyOf, String mirror,
            String earlier, String now) {
        this.admin = admin;
        this.group = group;
        this.keyOf = keyOf;
        this.mirror = mirror;
        this.earlier = earlier;
        this.now = now;
    }

    /**
     * For an exactly-once mirror: what it committed at least once, in the source group {@code sourceGroup}.
     */
    public static EarlierDelivery atLeastOnce(Admin sourceAdmin, String sourceGroup, String mirror) {
        return new EarlierDelivery(sourceAdmin, sourceGroup, Function.identity(), mirror, "at least once",
                "exactly once");
    }

    /**
     * For an at-least-once mirror: what it committed exactly once, in the target's progress group, keyed by the target
     * partitions. Only what is committed: an offset pending in a transaction left open by a crash is not read, since
     * nothing will commit that transaction now (the coordinator aborts it when it times out).
     */
    public static EarlierDelivery exactlyOnce(Admin targetAdmin, String progressGroup, TopicNaming naming,
            String mirror) {
        return new EarlierDelivery(targetAdmin, progressGroup, naming::target, mirror, "exactly once",
                "at least once");
    }

    /** Starts reading the other delivery's commits of {@code sources}, to be taken by {@link #later}. */
    KafkaFuture<Map<TopicPartition, OffsetAndMetadata>> ask(Set<TopicPartition> sources) {
        Map<TopicPartition, TopicPartition> sourceOf = new HashMap<>();
        sources.forEach(tp -> sourceOf.put(keyOf.apply(tp), tp));
        return admin.listConsumerGroupOffsets(
                        Map.of(group, new ListConsumerGroupOffsetsSpec().topicPartitions(sourceOf.keySet())),
                        new ListConsumerGroupOffsetsOptions().requireStable(false))
                .partitionsToOffsetAndMetadata(group)
                .thenApply(found -> {
                    Map<TopicPartition, OffsetAndMetadata> bySource = new HashMap<>();
                    found.forEach((key, offset) -> {
                        if (offset != null && sourceOf.containsKey(key)) {
                            bySource.put(sourceOf.get(key), offset);
                        }
                    });
                    return bySource;
                });
    }

    /**
     * {@code claimed}, with each partition whose other delivery committed further taken from there. When the other
     * delivery's commits cannot be read within {@code timeout}, a claim in which every partition has progress of its
     * own goes on from that (said in the log: a change of delivery just before would copy again what the other
     * delivery copied since); one with a partition that has none throws, since going on could copy every record
     * again.
     */
    Map<TopicPartition, OffsetAndMetadata> later(Set<TopicPartition> partitions,
            Map<TopicPartition, OffsetAndMetadata> claimed, KafkaFuture<Map<TopicPartition, OffsetAndMetadata>> asked,
            Duration timeout) {
        Map<TopicPartition, OffsetAndMetadata> other;
        try {
            other = read(asked, timeout);
        } catch (IllegalStateException e) {
            if (!claimed.keySet().containsAll(partitions)) {
                throw e;
            }
            LOG.warn("{}; each partition goes on from its own last commit {}", e.getMessage(), now);
            return claimed;
        }
        Map<TopicPartition, OffsetAndMetadata> result = new HashMap<>(claimed);
        other.forEach((tp, offset) -> {
            OffsetAndMetadata own = claimed.get(tp);
            if (own == null || offset.offset() > own.offset()) {
                result.put(tp, offset);
                LOG.info("{} goes on from offset {}, where mirror '{}' committed {} (its delivery is {} now; {})", tp,
                        String.format("%,d", offset.offset()), mirror, earlier, now, own == null
                                ? "it had committed nothing " + now
                                : String.format("its last commit %s was at %,d", now, own.offset()));
            }
        });
        return result;
    }

    private Map<TopicPartition, OffsetAndMetadata> read(KafkaFuture<Map<TopicPartition, OffsetAndMetadata>> asked,
            Duration timeout) {
        try {
            return asked.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException(cannot() + ": " + e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException(cannot() + ": no answer within " + timeout.toSeconds() + " s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(cannot() + ": interrupted", e);
        }
    }

    private String cannot() {
        return "cannot read what mirror '" + mirror + "' committed " + earlier + " (group '" + group
                + "'), which it goes on from if its delivery was changed";
    }
}
