package io.sluice.mirror.topics;

import io.sluice.mirror.copy.Provenance;
import io.sluice.mirror.copy.TopicNaming;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Refuses to copy a partition from the source's beginning when the mirror has no progress for it but its target
 * partition holds this source's copies, committed: the progress was lost (a mirror stopped longer than the cluster's
 * {@code offsets.retention.minutes}, 7 days by default, loses its progress group; deleting a source topic deletes every
 * group's offsets of it), and copying again would write every record the source still holds a second time, exactly
 * without a word (a review). Exactly once only: a copy a read_committed reader sees was committed with its progress,
 * so copies without progress mean progress lost, while aborted copies of a first transaction that never committed
 * are not seen. At least once, copies without progress may be the first window's, which a restart copies again by
 * design, and records of other tools (no provenance of this source) are not a mirror's: both are only warned of
 * ({@link ForeignRecords}).
 *
 * <p>Threading: the claim's thread; a reader of its own per check, made only when a partition without progress holds
 * records.
 */
final class LostProgress {

    /** The records read back from a target partition's end to find the last copy of this source. */
    private static final int TAIL = 64;
    private static final Duration WAIT = Duration.ofSeconds(10);

    private final Map<String, Object> targetProperties;
    private final String sourceClusterId;
    private final TopicNaming naming;
    private final String mirror;
    /** Where the progress is kept, in words: a reset command names it. */
    private final String progressGroup;
    private final boolean exactlyOnce;

    LostProgress(Map<String, Object> targetProperties, String sourceClusterId, TopicNaming naming, String mirror,
            String progressGroup, boolean exactlyOnce) {
        this.targetProperties = Map.copyOf(targetProperties);
        this.sourceClusterId = sourceClusterId;
        this.naming = naming;
        this.mirror = mirror;
        this.progressGroup = progressGroup;
        this.exactlyOnce = exactlyOnce;
    }

    /**
     * @param withoutProgress the claimed source partitions without progress, with what their target partitions hold
     * @throws IllegalStateException naming each partition whose target holds this source's copies, and the way on
     */
    void refuseIfCopied(Map<TopicPartition, ClusterTopics.OffsetRange> withoutProgress) {
        if (!exactlyOnce) {
            return;
        }
        Map<TopicPartition, Long> copiedUpTo = new TreeMap<>(Comparator.comparing(TopicPartition::topic)
                .thenComparingInt(TopicPartition::partition));
        Map<TopicPartition, ClusterTopics.OffsetRange> holding = new HashMap<>(withoutProgress);
        holding.values().removeIf(range -> range.count() <= 0);
        if (holding.isEmpty()) {
            return;
        }
        Map<String, Object> props = new HashMap<>(targetProperties);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.remove(ConsumerConfig.GROUP_ID_CONFIG);
        try (KafkaConsumer<byte[], byte[]> reader = new KafkaConsumer<>(props, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            for (Map.Entry<TopicPartition, ClusterTopics.OffsetRange> e : holding.entrySet()) {
                lastCopy(reader, naming.target(e.getKey()), e.getValue()).ifPresent(o -> copiedUpTo.put(e.getKey(),
                        o + 1));
            }
        }
        if (copiedUpTo.isEmpty()) {
            return;
        }
        List<String> named = new ArrayList<>();
        copiedUpTo.forEach((source, next) -> named.add(String.format(Locale.ROOT, "%s (its copies there go up to "
                + "source offset %,d)", source, next - 1)));
        Map.Entry<TopicPartition, Long> first = copiedUpTo.entrySet().iterator().next();
        String topic = naming.target(first.getKey().topic());
        throw new IllegalStateException("mirror '" + mirror + "' has no progress for " + String.join(", ", named)
                + ", but the target holds its copies: the progress was lost (a mirror stopped longer than the "
                + "cluster's offsets.retention.minutes loses it; deleting a source topic deletes it), and copying "
                + "from the source's beginning would write those records a second time. To go on after the copies, "
                + "stop every instance and set the progress, e.g. kafka-consumer-groups.sh --bootstrap-server <target> "
                + "--group " + progressGroup + " --reset-offsets --topic " + topic + ":"
                + first.getKey().partition() + " --to-offset " + first.getValue() + " --execute. If the source topic "
                + "was deleted and created again, its records need a target topic of their own (docs/mirror.md, "
                + "Loud gaps)");
    }

    /** The source offset of the last committed copy of this source in the target partition's tail, if any. */
    private java.util.Optional<Long> lastCopy(KafkaConsumer<byte[], byte[]> reader, TopicPartition target,
            ClusterTopics.OffsetRange range) {
        reader.assign(List.of(target));
        long end = reader.endOffsets(List.of(target), WAIT).getOrDefault(target, range.end()); // the stable end
        reader.seek(target, Math.max(range.start(), end - TAIL));
        long deadline = System.nanoTime() + WAIT.toNanos();
        Long last = null;
        while (reader.position(target, WAIT) < end && System.nanoTime() < deadline) {
            for (ConsumerRecord<byte[], byte[]> r : reader.poll(Duration.ofMillis(200)).records(target)) {
                java.util.Optional<Provenance.Hop> hop = Provenance.lastHop(r.headers())
                        .filter(h -> h.clusterId().equals(sourceClusterId));
                if (hop.isPresent()) {
                    last = hop.get().offset();
                }
            }
        }
        return java.util.Optional.ofNullable(last);
    }
}
