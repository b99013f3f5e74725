package io.sluice.mirror.audit;

import io.sluice.core.ClusterConnection;
import io.sluice.mirror.MirrorDelivery;
import io.sluice.mirror.MirrorProgress;
import io.sluice.mirror.copy.Provenance;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;

/**
 * The audit behind {@code sluice verify} for a mirror: compares each source partition with its target partition
 * ({@link PartitionComparison}), one partition after the other, streaming both sides, and says whether the target
 * holds every committed source record exactly once, in order, byte for byte. It only reads: no group is joined and
 * nothing is committed.
 *
 * <p>A partition whose source or target topic is compacted is read twice on each side: first for the last record of
 * each key ({@link LatestKeys}), which tells records compacted away from records lost ({@link Compaction}), then for
 * the comparison. A cleaner that runs between the two reads can make a record look lost: audit again.
 *
 * <p>Threading: stateless; {@link #run} does all its work on the calling thread.
 */
public final class MirrorAudit {

    private MirrorAudit() {
    }

    /** Audits the mirror of {@code config}; throws {@link MirrorAuditException} when it cannot be audited. */
    public static MirrorAuditReport run(MirrorAuditConfig config) {
        Instant started = Instant.now();
        try (Admin sourceAdmin = Admin.create(ClusterConnection.of(config.sourceProperties()));
                Admin targetAdmin = Admin.create(ClusterConnection.of(config.targetProperties()));
                CommittedLog source = new CommittedLog(config.sourceProperties(), "source", config.timeout());
                CommittedLog target = new CommittedLog(config.targetProperties(), "target", config.timeout())) {
            String sourceCluster = answer(sourceAdmin.describeCluster().clusterId(), "reach the source cluster", config);
            String targetCluster = answer(targetAdmin.describeCluster().clusterId(), "reach the target cluster", config);
            List<TopicPartition> partitions = sourcePartitions(sourceAdmin, config);
            Set<TopicPartition> targetPartitions = targetPartitions(targetAdmin, partitions, config);
            Map<TopicPartition, Long> logStarts = source.logStarts(partitions);
            Map<TopicPartition, Long> sourceEnds = source.lastStable(partitions);
            // the target's ends before the progress, once every transaction below them is decided: a copy below
            // them was committed with its progress, so the progress read after covers it; read the other way round, a
            // running mirror's commit in between left copies "beyond the progress" (a false difference a user met)
            Map<TopicPartition, Long> targetStarts = target.logStarts(targetPartitions);
            Map<TopicPartition, Long> targetEnds = target.decidedUpTo(logEnds(targetAdmin, targetPartitions, config));
            Map<TopicPartition, Long> progress = config.untilSourceEnd() ? sourceEnds : progress(config, partitions);
            refuseProgressPastTheEnd(source, progress, sourceEnds);
            Map<String, CompactionPolicy> sourcePolicies = CompactionPolicy.of(sourceAdmin,
                    partitions.stream().map(TopicPartition::topic).distinct().toList(), "source", config);
            Map<String, CompactionPolicy> targetPolicies = CompactionPolicy.of(targetAdmin,
                    targetPartitions.stream().map(TopicPartition::topic).distinct().toList(), "target", config);
            List<String> notes = new ArrayList<>();
            List<PartitionAudit> audits = new ArrayList<>();
            for (TopicPartition tp : partitions) {
                TopicPartition targetTp = config.naming().target(tp);
                long logStart = logStarts.get(tp);
                long until = progress.getOrDefault(tp, logStart);
                if (!progress.containsKey(tp)) {
                    notes.add(tp + " has no progress committed: nothing of it counts as copied");
                }
                if (!targetPartitions.contains(targetTp)) {
                    notes.add(targetTp + " does not exist in the target");
                }
                Supplier<Iterator<ConsumerRecord<byte[], byte[]>>> copies = () -> targetPartitions.contains(targetTp)
                        ? target.walk(targetTp, targetStarts.get(targetTp), targetEnds.get(targetTp))
                        : Collections.emptyIterator();
                CompactionPolicy sourcePolicy = sourcePolicies.getOrDefault(tp.topic(), CompactionPolicy.NONE);
                CompactionPolicy targetPolicy = targetPolicies.getOrDefault(targetTp.topic(), CompactionPolicy.NONE);
                Compaction compaction = Compaction.NONE;
                if (sourcePolicy.compacted() || targetPolicy.compacted()) {
                    // up to the source's end: a record that superseded a copied one may not be copied yet
                    LatestKeys inSource = LatestKeys.ofSource(source.walk(tp, logStart,
                            Math.max(logStart, sourceEnds.get(tp))));
                    LatestKeys inTarget = LatestKeys.ofCopies(copies.get(), sourceCluster);
                    compaction = new Compaction(sourcePolicy, targetPolicy, inSource, inTarget, until,
                            started.toEpochMilli());
                }
                audits.add(new PartitionComparison(tp.topic(), targetTp.topic(), tp.partition(), sourceCluster,
                        targetCluster, logStart, until, config.delivery() == MirrorDelivery.AT_LEAST_ONCE, compaction)
                        .compare(source.walk(tp, logStart, Math.max(logStart, until)), copies.get()));
            }
            long strayCopies = strays(target, targetPartitions, targetStarts, targetEnds, partitions, sourceCluster,
                    config, notes);
            // a partition holding records without progress (added later, progress expired) or without its target
            // partition was a note under a "CLEAN" headline, exit 0 (a review): nothing of it was verified
            boolean unverified = !config.untilSourceEnd() && partitions.stream().anyMatch(tp ->
                    sourceEnds.get(tp) > logStarts.get(tp) && (!progress.containsKey(tp)
                            || !targetPartitions.contains(config.naming().target(tp))));
            return new MirrorAuditReport(config.mirrorName(), config.delivery(), config.untilSourceEnd(),
                    sourceCluster, targetCluster, started, Instant.now().toEpochMilli() - started.toEpochMilli(),
                    audits, notes, unverified, strayCopies);
        }
    }

    /**
     * The target partitions no source partition is copied to (the target topic has more partitions than the source):
     * their records were compared with nothing. Each that holds records gets a note; a copy of this source's records
     * there is a second copy (its source partition's copies are compared in order elsewhere). Returns how many copies.
     */
    private static long strays(CommittedLog target, Set<TopicPartition> targetPartitions,
            Map<TopicPartition, Long> starts, Map<TopicPartition, Long> ends, List<TopicPartition> sourcePartitions,
            String sourceCluster, MirrorAuditConfig config, List<String> notes) {
        Set<TopicPartition> copiedTo = new HashSet<>();
        sourcePartitions.forEach(tp -> copiedTo.add(config.naming().target(tp)));
        long copies = 0;
        for (TopicPartition stray : targetPartitions.stream().filter(tp -> !copiedTo.contains(tp))
                .sorted(Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition))
                .toList()) {
            long records = 0;
            long fromSource = 0;
            for (var walk = target.walk(stray, starts.get(stray), ends.get(stray)); walk.hasNext();) {
                records++;
                if (Provenance.lastHop(walk.next().headers()).filter(h -> h.clusterId().equals(sourceCluster))
                        .isPresent()) {
                    fromSource++;
                }
            }
            if (records > 0) {
                notes.add(String.format(Locale.ROOT, "%s: no source partition is copied to it, and it holds %,d "
                        + "record%s, not compared with the source%s", stray, records, records == 1 ? "" : "s",
                        fromSource == 0 ? " (no copy from the source cluster among them: written by something else)"
                                : String.format(Locale.ROOT, "; %,d of them %s from the source cluster, second copies "
                                        + "of records whose copies are compared in their own partition", fromSource,
                                        fromSource == 1 ? "is a copy" : "are copies")));
            }
            copies += fromSource;
        }
        return copies;
    }

    /** The mirror's source topics' partitions, by topic name and partition. */
    /**
     * A progress past the source partition's end, once that end is read again (a running mirror may have committed
     * after the first read), names records the source no longer holds: the topic was deleted and created again, or its
     * records deleted, after the copy. Said as that; the walk to the progress waited 30 s and blamed the network.
     */
    private static void refuseProgressPastTheEnd(CommittedLog source, Map<TopicPartition, Long> progress,
            Map<TopicPartition, Long> sourceEnds) {
        List<TopicPartition> past = progress.keySet().stream()
                .filter(tp -> sourceEnds.containsKey(tp) && progress.get(tp) > sourceEnds.get(tp)).toList();
        if (past.isEmpty()) {
            return;
        }
        Map<TopicPartition, Long> endsNow = source.lastStable(past);
        for (TopicPartition tp : past) {
            if (progress.get(tp) > endsNow.get(tp)) {
                throw new MirrorAuditException(String.format(Locale.ROOT, "the mirror's progress on %s (offset %,d) "
                        + "is past the source partition's end (%,d): the source topic was deleted and created "
                        + "again, or its records deleted, after the mirror copied from it, so the copies in the target "
                        + "cannot be compared with the source", tp, progress.get(tp), endsNow.get(tp)));
            }
        }
    }

    private static List<TopicPartition> sourcePartitions(Admin admin, MirrorAuditConfig config) {
        List<String> topics = config.topics();
        if (config.topicPattern().isPresent()) {
            topics = answer(admin.listTopics().names(), "list the source's topics", config).stream()
                    .filter(name -> config.topicPattern().get().matcher(name).matches()).sorted().toList();
        }
        if (topics.isEmpty()) {
            throw new MirrorAuditException("no topic of the source matches '" + config.topicPattern().orElse(null)
                    + "': nothing to audit");
        }
        Map<String, TopicDescription> described = answer(admin.describeTopics(topics).allTopicNames(),
                "describe the source topics " + topics, config);
        List<TopicPartition> partitions = new ArrayList<>();
        described.forEach((name, d) -> d.partitions()
                .forEach(p -> partitions.add(new TopicPartition(name, p.partition()))));
        partitions.sort(Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition));
        return partitions;
    }

    /** The target partitions that exist of those the source partitions are copied to. */
    private static Set<TopicPartition> targetPartitions(Admin admin, List<TopicPartition> sourcePartitions,
            MirrorAuditConfig config) {
        Set<String> names = answer(admin.listTopics().names(), "list the target's topics", config);
        List<String> wanted = sourcePartitions.stream().map(tp -> config.naming().target(tp.topic())).distinct()
                .filter(names::contains).toList();
        Map<String, TopicDescription> described = answer(admin.describeTopics(wanted).allTopicNames(),
                "describe the target topics " + wanted, config);
        Set<TopicPartition> existing = new HashSet<>();
        described.forEach((name, d) -> d.partitions().forEach(p -> existing.add(new TopicPartition(name,
                p.partition()))));
        return existing;
    }

    static <T> T answer(KafkaFuture<T> future, String what, MirrorAuditConfig config) {
        try {
            return future.get(config.timeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new MirrorAuditException("cannot " + what + ": " + e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            throw new MirrorAuditException("cannot " + what + ": no answer within " + config.timeout().toSeconds()
                    + " s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MirrorAuditException("interrupted while trying to " + what, e);
        }
    }

    /** The end of each partition's log, undecided transactions and markers included (its high watermark). */
    private static Map<TopicPartition, Long> logEnds(Admin admin, Set<TopicPartition> partitions,
            MirrorAuditConfig config) {
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        partitions.forEach(tp -> latest.put(tp, OffsetSpec.latest()));
        Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> ends = answer(admin.listOffsets(latest,
                new ListOffsetsOptions(IsolationLevel.READ_UNCOMMITTED)).all(), "read the target's end offsets",
                config);
        Map<TopicPartition, Long> offsets = new HashMap<>();
        ends.forEach((tp, info) -> offsets.put(tp, info.offset()));
        return offsets;
    }

    /** How far the mirror copied, where its delivery keeps it; a partition never committed is left out. */
    private static Map<TopicPartition, Long> progress(MirrorAuditConfig config, List<TopicPartition> partitions) {
        try (MirrorProgress progress = MirrorProgress.of(config.mirror(), config.timeout())) {
            return progress.copiedBefore(new HashSet<>(partitions));
        } catch (KafkaException e) {
            throw new MirrorAuditException("cannot read the mirror's progress from " + (config.delivery()
                    == MirrorDelivery.EXACTLY_ONCE ? "the target's group " + config.progressGroup()
                    : "the source's group " + config.sourceGroup()) + ": " + e.getMessage(), e);
        }
    }
}
