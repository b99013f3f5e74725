package io.sluice.mirror.topics;

import io.sluice.core.ErrorWords;
import io.sluice.mirror.copy.TopicNaming;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.function.Function;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes sure each target topic exists with at least as many partitions as its source topic, before any of its
 * partitions is claimed: created with the source's partition count and the configs {@link TopicConfigRule} copies
 * (and the target's default replication, unless told), grown when the source grew. {@link TopicSync} keeps the
 * topics made ready here like their sources afterwards.
 *
 * <p>A mirror of named topics has them made ready {@linkplain #prepareAhead ahead}, while its consumer joins the
 * group: a claim then finds them ready instead of spending the admin round trips (describe both sides, create) before
 * the first copy. The preparation ahead only saves time: whatever it could not do, the claim does, and reports.
 *
 * <p>Threading: {@link #ensure} on the engine's consumer thread (in a claim), {@link #grew} on the sync's thread,
 * {@link #prepareAhead} on a thread of its own; the cache is safe to read anywhere, and two threads that make the
 * same topic ready at once leave it as one did (a creation that finds the topic made by another is not an error).
 */
public final class TargetTopics {

    private static final Logger LOG = LoggerFactory.getLogger(TargetTopics.class);
    /** The target topics said to have more partitions than their source: each is said once. */
    private final Set<String> warnedOfExtraPartitions = ConcurrentHashMap.newKeySet();
    /** The target topics made by hand on LogAppendTime: each is said once. */
    private final Set<String> warnedOfAppendTime = ConcurrentHashMap.newKeySet();

    /**
     * The mirror keeps each record's timestamp; a target topic on LogAppendTime (a target broker's default may be)
     * would overwrite it with the time of the copy. And it takes any timestamp the source took: since Kafka 4.0 a
     * broker refuses one more than an hour ahead by default, and a source record stamped further ahead stopped the
     * mirror at that record at every start (a review).
     */
    private static final Map<String, String> KEEP_TIMESTAMPS = Map.of("message.timestamp.type", "CreateTime",
            "message.timestamp.before.max.ms", Long.toString(Long.MAX_VALUE),
            "message.timestamp.after.max.ms", Long.toString(Long.MAX_VALUE));

    private final ClusterTopics source;
    private final ClusterTopics target;
    private final TopicNaming naming;
    private final Optional<Short> replicationFactor;
    /** Why a source topic must not be copied, or empty: a copy within one cluster that this mirror would copy again. */
    private final Function<String, Optional<String>> refusal;
    /** Source topics whose target topic is known to have at least this many partitions. */
    private final Map<String, Integer> known = new ConcurrentHashMap<>();
    /** The preparation ahead of the first claim; done when there is none. */
    private volatile CompletableFuture<Void> ahead = CompletableFuture.completedFuture(null);

    public TargetTopics(ClusterTopics source, ClusterTopics target, TopicNaming naming,
            Optional<Short> replicationFactor) {
        this(source, target, naming, replicationFactor, topic -> Optional.empty());
    }

    /**
     * @param refusal why a source topic must not be copied, or empty: checked before its target topic is made, since a
     *                topic created after the start is checked by nothing else (a mirror within one cluster, by a
     *                pattern that matches the copies, would make a generation of topics every claim)
     */
    public TargetTopics(ClusterTopics source, ClusterTopics target, TopicNaming naming,
            Optional<Short> replicationFactor, Function<String, Optional<String>> refusal) {
        this.source = source;
        this.target = target;
        this.naming = naming;
        this.replicationFactor = replicationFactor;
        this.refusal = refusal;
    }

    /**
     * Starts making the target topics of {@code sourceTopics} ready in the background, with their sources' partition
     * counts; the first {@link #ensure} waits for it.
     */
    public void prepareAhead(Collection<String> sourceTopics) {
        Map<String, Integer> needed = new HashMap<>();
        sourceTopics.forEach(topic -> needed.put(topic, 1));
        ahead = CompletableFuture.runAsync(() -> prepare(needed), task -> {
            Thread thread = new Thread(task, "sluice-mirror-topics-ahead");
            thread.setDaemon(true);
            thread.start();
        });
    }

    /** Creates or grows the target topics of {@code partitions} so that each has its partition. */
    public void ensure(Set<TopicPartition> partitions) {
        awaitAhead();
        Map<String, Integer> needed = new HashMap<>();
        for (TopicPartition tp : partitions) {
            needed.merge(tp.topic(), tp.partition() + 1, Math::max);
        }
        prepare(needed);
    }

    /** Waits for the preparation ahead, if any; its failure is left for the claim's own preparation to report. */
    private void awaitAhead() {
        try {
            ahead.get();
        } catch (ExecutionException e) {
            // the claim's own preparation below meets the same cause and reports it
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Makes each source topic's target topic have at least the source's partitions, and the number given. */
    private void prepare(Map<String, Integer> neededPartitions) {
        Map<String, Integer> needed = new HashMap<>(neededPartitions);
        needed.entrySet().removeIf(e -> known.getOrDefault(e.getKey(), 0) >= e.getValue());
        if (needed.isEmpty()) {
            return;
        }
        for (String topic : needed.keySet()) {
            Optional<String> refused = refusal.apply(topic);
            if (refused.isPresent()) {
                throw new IllegalStateException(refused.get());
            }
        }
        try {
            Map<String, ClusterTopics.State> sources = source.describe(needed.keySet());
            for (Map.Entry<String, Integer> e : needed.entrySet()) {
                ClusterTopics.State state = sources.get(e.getKey());
                if (state == null) {
                    throw new IllegalStateException("the source topic " + e.getKey() + " is gone");
                }
                ensure(e.getKey(), Math.max(state.partitions(), e.getValue()), state.configs());
            }
        } catch (KafkaException e) {
            throw new IllegalStateException("cannot prepare the target topics of " + needed.keySet() + ": "
                    + e.getMessage(), e);
        }
    }

    private void ensure(String sourceTopic, int partitions, Map<String, String> configs) {
        String name = naming.target(sourceTopic);
        ClusterTopics.State existing = target.describe(List.of(name)).get(name);
        int has;
        if (existing != null) {
            has = existing.partitions();
            if (existing.appendTime() && warnedOfAppendTime.add(name)) {
                LOG.warn("the target topic {} stores the time of each append (message.timestamp.type LogAppendTime): "
                        + "the copies of {} lose their source timestamps, and `sluice verify` reports each as a "
                        + "difference. Set message.timestamp.type=CreateTime on {} to keep them (the mirror makes its "
                        + "own target topics so)", name, sourceTopic, name);
            }
            // a topic made by hand with cleanup.policy compact took no copy of a source record without a key, and the
            // mirror stopped on it at every start, before the first topic sync's round would have followed the source
            try {
                followConfigs(sourceTopic, name, configs, existing.configs(), "differ");
            } catch (KafkaException e) {
                // refused (no AlterConfigs here, a managed cluster's policy): the topic sync's rounds say so and try
                // again, and the mirror copies on as it did before the claim tried (a review)
                LOG.warn("cannot make the configs of the target topic {} those of the source topic {} ({}); the mirror "
                        + "copies on, and tries again every topic sync round", name, sourceTopic,
                        ErrorWords.of(e));
            }
        } else {
            Map<String, String> withConfigs = new HashMap<>(TopicConfigRule.forTarget(configs));
            withConfigs.putAll(KEEP_TIMESTAMPS);
            has = target.create(name, partitions, replicationFactor, withConfigs) ? partitions
                    : madeByAnother(name);
        }
        if (has < partitions) {
            target.grow(name, partitions);
            // said, as a running mirror says a source topic's growth (a topic made by hand was grown without a word)
            LOG.info("the target topic {} had {} partitions, the source topic {} has {}: grown to {} (source "
                    + "partition p goes to target partition p)", name, has, sourceTopic, partitions, partitions);
            has = partitions;
        } else if (has > partitions) {
            warnOfExtraPartitions(name, has, sourceTopic, partitions);
        }
        grew(sourceTopic, has);
    }

    /** The target topics found storing append times, said in the log. */
    Set<String> appendTimeTargets() {
        return Set.copyOf(warnedOfAppendTime);
    }

    /**
     * Makes the copied configs of target topic {@code name} ({@code to}) those of its source {@code topic}
     * ({@code from}): the ones that differ set, the ones the source does not set deleted (so that the target's default
     * applies again), and says so in the log, the source's configs having {@code how} ("changed", "differ").
     */
    void followConfigs(String topic, String name, Map<String, String> from, Map<String, String> to, String how) {
        Map<String, String> wanted = TopicConfigRule.forTarget(from);
        Map<String, String> set = new TreeMap<>(wanted);
        set.entrySet().removeIf(e -> e.getValue().equals(to.get(e.getKey())));
        List<String> delete = to.keySet().stream().filter(k -> !wanted.containsKey(k)).sorted().toList();
        if (!set.isEmpty() || !delete.isEmpty()) {
            target.alter(name, set, delete);
            // "now has {} and the default [retention.ms]" for a removed config alone (a new user's run)
            String now = set.isEmpty() ? "" : set.toString();
            String defaults = delete.isEmpty() ? "" : "the default of " + String.join(", ", delete);
            LOG.info("the configs of the source topic {} {}: the target topic {} now has {}", topic, how, name,
                    now.isEmpty() ? defaults : defaults.isEmpty() ? now : now + " and " + defaults);
        }
    }

    /** What refuses to copy again from the beginning what the target holds copies of, without progress. */
    LostProgress lostProgress(Map<String, Object> targetProperties, String sourceClusterId, String mirror,
            String progressGroup, boolean exactlyOnce) {
        return new LostProgress(targetProperties, sourceClusterId, naming, mirror, progressGroup, exactlyOnce);
    }

    /** What says when target partitions hold records that mirror {@code mirror} did not copy. */
    ForeignRecords foreignRecords(String mirror, boolean exactlyOnce) {
        return new ForeignRecords(target, naming, mirror, exactlyOnce);
    }

    /** The partitions of a topic whose creation found it there: another instance was first, or it is being deleted. */
    private int madeByAnother(String name) {
        ClusterTopics.State made = target.describe(List.of(name)).get(name);
        if (made == null) {
            throw new IllegalStateException("the target topic " + name + " exists by its creation's answer but not by "
                    + "its description: it is being deleted; the next claim makes it again");
        }
        return made.partitions();
    }

    /** The source topics whose target topics this instance made ready: the ones {@link TopicSync} follows. */
    Set<String> prepared() {
        return Set.copyOf(known.keySet());
    }

    /** Forgets what was made ready for {@code sourceTopic}: its target topic is gone, or its source topic is. */
    void forget(String sourceTopic) {
        known.remove(sourceTopic);
    }

    /** Notes that the target topic of {@code sourceTopic} has at least {@code partitions} partitions. */
    /**
     * Says once per target topic that it has more partitions than its source: at a claim, and from the topic sync,
     * whichever sees it first (the claim's word came 30 s sooner, and always in a bounded run).
     */
    void warnOfExtraPartitions(String name, int has, String sourceTopic, int partitions) {
        if (warnedOfExtraPartitions.add(name)) {
            LOG.warn("the target topic {} has {} partitions, the source topic {} only {}: partitions {} to {} of the "
                    + "target get no copies (source partition p goes to target partition p), and consumers moved to "
                    + "the target find nothing there. Was the target topic made by hand, or the source topic made "
                    + "again with fewer partitions?", name, has, sourceTopic, partitions, partitions, has - 1);
        }
    }

    void grew(String sourceTopic, int partitions) {
        known.merge(sourceTopic, partitions, Math::max);
    }
}
