package io.sluice.mirror.topics;

import io.sluice.core.commit.GroupProgress;
import io.sluice.core.wire.CommitMetadata;
import io.sluice.mirror.copy.CopyBounds;
import io.sluice.mirror.copy.TopicNaming;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The progress a mirror committed under its other delivery. Each delivery keeps a mirror's progress in its own place
 * (exactly once: the target's progress group, in the copies' transactions; at least once: the source group), so a
 * mirror whose {@code delivery} was changed found no progress and copied every record again from the source's
 * beginning (a new user's run: 3,000 records, then the same 3,000 again, and a warning that the mirror had copied
 * nothing there). At a claim, each partition now goes on from the other delivery's commit when that is later than its
 * own and still true of the clusters as they are now:
 * <ul>
 *   <li>it is of the source topic as it is now (its topic ID): one deleted and created again since makes it
 *       another topic's, which would stop the mirror at every claim, and no reset of this delivery's progress would
 *       get past it;</li>
 *   <li>the target partition still ends at or past where that commit says its copies end ({@code copies-below}):
 *       the other delivery's place outlives a target topic deleted and created again, a target cluster replaced or
 *       a {@code topic-name} changed, and going on from it then would leave every record before it uncopied.</li>
 * </ul>
 * What cannot be read or checked is not taken: at least once, the partition goes on from its own commit (copies may
 * repeat, as at least once allows); exactly once, the claim fails, and the restart that follows tries again, since
 * going on from its own older commit would copy again what the other delivery copied since.
 *
 * <p>Threading: the claim's thread (the engine's consumer thread); {@link #ask} returns at once.
 */
public final class EarlierDelivery {

    private static final Logger LOG = LoggerFactory.getLogger("io.sluice.mirror");

    private final Admin otherPlace;
    private final Admin source;
    private final String group;
    /** The partition the other delivery keeps a source partition's progress under. */
    private final Function<TopicPartition, TopicPartition> keyOf;
    private final TopicNaming naming;
    private final String mirror;
    private final boolean exactlyOnceNow;

    private EarlierDelivery(Admin otherPlace, Admin source, String group,
            Function<TopicPartition, TopicPartition> keyOf, TopicNaming naming, String mirror, boolean exactlyOnceNow) {
        this.otherPlace = otherPlace;
        this.source = source;
        this.group = group;
        this.keyOf = keyOf;
        this.naming = naming;
        this.mirror = mirror;
        this.exactlyOnceNow = exactlyOnceNow;
    }

    /** For an exactly-once mirror: what it committed at least once, in the source group {@code sourceGroup}. */
    public static EarlierDelivery atLeastOnce(Admin sourceAdmin, String sourceGroup, TopicNaming naming,
            String mirror) {
        return new EarlierDelivery(sourceAdmin, sourceAdmin, sourceGroup, Function.identity(), naming, mirror, true);
    }

    /**
     * For an at-least-once mirror: what it committed exactly once, in the target's progress group, keyed by the target
     * partitions. Read as committed now: an offset still pending in a transaction reads as the commit before it, so
     * the copies of a transaction that commits after the read are copied again (at least once allows that).
     */
    public static EarlierDelivery exactlyOnce(Admin targetAdmin, Admin sourceAdmin, String progressGroup,
            TopicNaming naming, String mirror) {
        return new EarlierDelivery(targetAdmin, sourceAdmin, progressGroup, naming::target, naming, mirror, false);
    }

    /** What a claim asked of the other delivery's place and of the source, to be taken by {@link #later}. */
    static final class Asked {
        private final KafkaFuture<Map<TopicPartition, OffsetAndMetadata>> commits;
        private final KafkaFuture<Map<String, TopicDescription>> topics;

        private Asked(KafkaFuture<Map<TopicPartition, OffsetAndMetadata>> commits,
                KafkaFuture<Map<String, TopicDescription>> topics) {
            this.commits = commits;
            this.topics = topics;
        }
    }

    /** Starts reading the other delivery's commits of {@code sources} and their topics' IDs. */
    Asked ask(Set<TopicPartition> sources) {
        // committed now: an offset pending in a transaction reads as the commit before it (see exactlyOnce)
        KafkaFuture<Map<TopicPartition, OffsetAndMetadata>> commits = GroupProgress.read(otherPlace, group, keyOf,
                sources, false);
        List<String> names = sources.stream().map(TopicPartition::topic).distinct().toList();
        return new Asked(commits, source.describeTopics(names).allTopicNames());
    }

    /**
     * {@code claimed}, with each partition whose other delivery committed further, and whose commit is still true of
     * the clusters (see the class comment), taken from there.
     *
     * @param targetRanges what the target partitions hold now, by target partition, as asked for the claim
     * @param deadline     {@link System#nanoTime} by which the answers must have come: the claim's own timeout
     */
    Map<TopicPartition, OffsetAndMetadata> later(Set<TopicPartition> partitions,
            Map<TopicPartition, OffsetAndMetadata> claimed, Asked asked,
            Future<Map<TopicPartition, ClusterTopics.OffsetRange>> targetRanges, long deadline) {
        Map<TopicPartition, OffsetAndMetadata> other;
        Map<String, TopicDescription> topics;
        try {
            other = answer(asked.commits, deadline, readFailure());
            if (other.isEmpty()) {
                return claimed;
            }
            topics = answer(asked.topics, deadline, "cannot describe the source topics, to check the commits mirror '"
                    + mirror + "' made " + earlier());
        } catch (IllegalStateException e) {
            return unchecked(partitions, claimed, e);
        }
        Map<TopicPartition, OffsetAndMetadata> result = new HashMap<>(claimed);
        Optional<Map<TopicPartition, ClusterTopics.OffsetRange>> ranges = Optional.empty();
        try {
            ranges = Optional.of(answer(targetRanges, deadline, "cannot read what the target partitions hold"));
        } catch (IllegalStateException e) {
            if (exactlyOnceNow && other.entrySet().stream().anyMatch(o -> claimed.get(o.getKey()) == null
                    || o.getValue().offset() > claimed.get(o.getKey()).offset())) {
                // going on from its own older commit would copy again what the other delivery copied since
                throw new IllegalStateException(e.getMessage() + ", to check the commits mirror '" + mirror + "' made "
                        + earlier() + " against them; a restart tries again", e.getCause());
            }
        }
        for (Map.Entry<TopicPartition, OffsetAndMetadata> e : other.entrySet()) {
            TopicPartition tp = e.getKey();
            OffsetAndMetadata offset = e.getValue();
            OffsetAndMetadata own = claimed.get(tp);
            if (own != null && offset.offset() <= own.offset()) {
                continue;
            }
            String stale = stale(tp, offset, topics, ranges);
            if (stale != null) {
                LOG.info("{}: the commit mirror '{}' made {} (offset {}) is not taken: {}", tp, mirror, earlier(),
                        String.format("%,d", offset.offset()), stale);
                continue;
            }
            result.put(tp, offset);
            LOG.info("{} goes on from offset {}, where mirror '{}' committed {} (its delivery is {} now; {})", tp,
                    String.format("%,d", offset.offset()), mirror, earlier(), now(), own == null
                            ? "it had committed nothing " + now()
                            : String.format("its last commit %s was at %,d", now(), own.offset()));
        }
        return result;
    }

    /** Why the other delivery's commit of {@code tp} is no longer true of the clusters, or null when it is. */
    private String stale(TopicPartition tp, OffsetAndMetadata offset, Map<String, TopicDescription> topics,
            Optional<Map<TopicPartition, ClusterTopics.OffsetRange>> targetRanges) {
        Optional<Uuid> was = CommitMetadata.topicId(offset.metadata());
        TopicDescription now = topics.get(tp.topic());
        if (was.isPresent() && (now == null || !was.get().equals(now.topicId()))) {
            return "it is of an earlier topic " + tp.topic() + " (ID " + was.get() + "), deleted and created again since";
        }
        OptionalLong copiesBelow = CopyBounds.decode(CommitMetadata.sinkData(offset.metadata())).below();
        if (copiesBelow.isEmpty()) {
            return "it does not say where its copies end in the target, so it cannot be checked against the target";
        }
        TopicPartition target = naming.target(tp);
        ClusterTopics.OffsetRange range = targetRanges.map(r -> r.get(target)).orElse(null);
        if (range == null) {
            return "what " + target + " holds in the target is not known";
        }
        if (range.end() < copiesBelow.getAsLong()) {
            return String.format("its copies end at offset %,d of %s, which ends at %,d now (the target topic was "
                    + "created again, or this is another target or topic name)", copiesBelow.getAsLong(), target,
                    range.end());
        }
        return null;
    }

    /**
     * The other delivery's commits could not be read: at least once goes on from its own commits when every partition
     * has one (a change of delivery just before copies again what the other delivery copied since); otherwise, and
     * exactly once, the claim fails and the restart after it tries again.
     */
    private Map<TopicPartition, OffsetAndMetadata> unchecked(Set<TopicPartition> partitions,
            Map<TopicPartition, OffsetAndMetadata> claimed, IllegalStateException why) {
        if (exactlyOnceNow || !claimed.keySet().containsAll(partitions)) {
            // the client's failure as the cause: a timeout is one a new engine cures, and the command starts one
            throw new IllegalStateException(why.getMessage() + "; a restart tries again", why.getCause());
        }
        LOG.warn("{}; each partition goes on from its own last commit {}", why.getMessage(), now());
        return claimed;
    }

    private String readFailure() {
        return "cannot read what mirror '" + mirror + "' committed " + earlier() + " (group '" + group + "' in "
                + (exactlyOnceNow ? "the source" : "the target") + " cluster), which it goes on from if its delivery "
                + "was changed";
    }

    /** The answer by {@code deadline}; throws with {@code what} and why, the client's failure as the cause. */
    private static <T> T answer(Future<T> future, long deadline, String what) {
        try {
            return future.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException(what + ": " + e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException(what + ": no answer in time", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(what + ": interrupted", e);
        }
    }

    private String earlier() {
        return exactlyOnceNow ? "at least once" : "exactly once";
    }

    private String now() {
        return exactlyOnceNow ? "exactly once" : "at least once";
    }
}
