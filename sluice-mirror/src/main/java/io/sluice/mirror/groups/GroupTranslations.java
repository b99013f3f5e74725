package io.sluice.mirror.groups;

import io.sluice.mirror.MirrorConfig;
import io.sluice.mirror.MirrorProgress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.TopicPartition;

/**
 * The translations of the source groups a mirror translates: for each, per partition of a mirrored topic, its source
 * commit, the exact target offset and the target group's commit. What the sync writes and the report shows.
 *
 * <p>Threading: one thread at a time (it owns the translator's consumers).
 */
final class GroupTranslations implements AutoCloseable {

    private final MirrorConfig config;
    private final ConsumerGroups source;
    private final ConsumerGroups target;
    private final MirrorProgress progress;
    private final TargetCopies copies;
    private final OffsetTranslator translator;
    /** The source topics' IDs and the target topics', as this round found them. */
    private final TopicIds sourceIds;
    private final TopicIds targetIds;

    private GroupTranslations(MirrorConfig config, TopicIds sourceIds, TopicIds targetIds, ConsumerGroups source,
            ConsumerGroups target, MirrorProgress progress, TargetCopies copies) {
        this.config = config;
        this.sourceIds = sourceIds;
        this.targetIds = targetIds;
        this.source = source;
        this.target = target;
        this.progress = progress;
        this.copies = copies;
        this.translator = new OffsetTranslator(config, progress, copies, OffsetTranslator.FORWARD_SCAN);
    }

    /** Translations for the mirror {@code config} describes, which copies from the cluster {@code sourceClusterId}. */
    static GroupTranslations open(MirrorConfig config, String sourceClusterId, Admin sourceAdmin, Admin targetAdmin,
            Duration timeout) {
        MirrorProgress progress = MirrorProgress.of(config, timeout);
        try {
            return new GroupTranslations(config, new TopicIds(sourceAdmin, "source", timeout),
                    new TopicIds(targetAdmin, "target", timeout), new ConsumerGroups(sourceAdmin, "source", timeout), new ConsumerGroups(targetAdmin, "target", timeout),
                    progress,
                    new TargetCopies(config.targetProperties(), sourceClusterId, timeout));
        } catch (RuntimeException e) {
            progress.close();
            throw e;
        }
    }

    /** The source groups to translate: those the mirror's pattern matches, never the mirror's own. */
    List<String> groups() {
        if (config.groups().isEmpty()) {
            return List.of();
        }
        // never a mirror's own groups (this one's or another's): their offsets are a mirror's progress, not a reader's
        return source.matching(config.groups().get()).stream()
                .filter(g -> !g.startsWith(MirrorConfig.GROUP_PREFIX)).toList();
    }

    /** The group's translation for each partition of a mirrored topic it committed in the source, in order. */
    List<PartitionTranslation> of(String group) {
        return of(group, tp -> true);
    }

    /** As {@link #of(String)}, of the source partitions {@code among} accepts. */
    List<PartitionTranslation> of(String group, Predicate<TopicPartition> among) {
        Map<TopicPartition, Long> committed = new TreeMap<>(Comparator.comparing(TopicPartition::topic)
                .thenComparingInt(TopicPartition::partition));
        source.committed(group).forEach((tp, offset) -> {
            if (isMirrored(tp.topic()) && among.test(tp)) {
                committed.put(tp, offset);
            }
        });
        if (committed.isEmpty()) {
            return List.of();
        }
        Set<TopicPartition> copies = new HashSet<>();
        committed.keySet().forEach(tp -> copies.add(translator.targetOf(tp)));
        OffsetTranslator.Translated translated = translator.translate(committed, sourceIds.of(topicsOf(
                committed.keySet())), targetIds.of(topicsOf(copies)));
        Map<TopicPartition, Long> targetCommitted = target.committed(group);
        List<PartitionTranslation> rows = new ArrayList<>();
        committed.forEach((tp, offset) -> {
            TopicPartition copy = translator.targetOf(tp);
            rows.add(new PartitionTranslation(group, tp, offset, copy, optional(translated.offsets().get(tp)),
                    optional(targetCommitted.get(copy)), Optional.ofNullable(translated.notTranslated().get(tp)),
                    translated.aheadOfTheCopy().getOrDefault(tp, 0L)));
        });
        return rows;
    }

    private static Set<String> topicsOf(Set<TopicPartition> partitions) {
        Set<String> topics = new TreeSet<>();
        partitions.forEach(tp -> topics.add(tp.topic()));
        return topics;
    }

    /** How many copies of the source cluster's records lie in [{@code from}, {@code until}) of a target partition. */
    long copiesBetween(TopicPartition targetPartition, long from, long until) {
        return copies.count(targetPartition, from, until);
    }

    /**
     * Starts a round of questions: what the source's topics are and which target partitions did not answer are asked
     * again, once for all the round's groups (a partition that did not answer for one group would make each of the
     * others wait its timeout too).
     */
    void startRound() {
        sourceIds.startRound();
        targetIds.startRound();
        translator.startRound();
    }

    /** The target cluster's groups. */
    ConsumerGroups target() {
        return target;
    }

    private boolean isMirrored(String topic) {
        return config.topicPattern().map(p -> p.matcher(topic).matches()).orElseGet(() -> config.topics()
                .contains(topic));
    }

    private static OptionalLong optional(Long value) {
        return value == null ? OptionalLong.empty() : OptionalLong.of(value);
    }

    @Override
    public void close() {
        try {
            copies.close();
        } finally {
            progress.close();
        }
    }
}
