package io.sluice.mirror;

import io.sluice.core.wire.CommitMetadata;
import io.sluice.mirror.copy.CopyBounds;
import io.sluice.core.ClusterConnection;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * How far a mirror copied each source partition: the source offset before which every record is in the target. Offset
 * translation is clamped at it (a group is never moved past what the target holds), the audit compares up to it, and
 * {@code sluice lag} counts from it.
 *
 * <p>Exactly once, it is the progress committed in the same transactions as the copies: the offsets of the progress
 * group in the target, keyed by the target partition, read by a read_committed consumer's {@code committed()}, which
 * waits out offsets pending in a transaction (Admin's listConsumerGroupOffsets may leave those out). At least once,
 * it is the source group's commits: a checkpoint commits only after each copy before it was acknowledged.
 *
 * <p>Threading: one thread at a time (it owns a consumer).
 */
public final class MirrorProgress implements AutoCloseable {

    private final KafkaConsumer<byte[], byte[]> reader;
    /** The partition the progress of a source partition is stored under. */
    private final Function<TopicPartition, TopicPartition> keyOf;
    private final Duration timeout;

    private MirrorProgress(Map<String, ?> cluster, String group, Function<TopicPartition, TopicPartition> keyOf,
            Duration timeout) {
        Map<String, Object> props = ClusterConnection.of(cluster);
        props.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        this.reader = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        this.keyOf = keyOf;
        this.timeout = timeout;
    }

    /** The progress of the mirror {@code config} describes, where its delivery keeps it. */
    public static MirrorProgress of(MirrorConfig config, Duration timeout) {
        if (config.delivery() == MirrorDelivery.EXACTLY_ONCE) {
            return new MirrorProgress(config.targetProperties(), config.progressGroup(),
                    config.naming()::target, timeout);
        }
        return new MirrorProgress(config.sourceProperties(), config.sourceGroup(), Function.identity(), timeout);
    }

    /** For each source partition that was copied from: the offset before which everything was copied. */
    public Map<TopicPartition, Long> copiedBefore(Set<TopicPartition> sources) {
        Map<TopicPartition, Long> copied = new HashMap<>();
        reach(sources).forEach((tp, reach) -> copied.put(tp, reach.copiedBefore()));
        return copied;
    }

    /**
     * How far a source partition was copied: everything before {@code copiedBefore}, in copies that lie where
     * {@code copies} says in the target, of the source topic whose ID is {@code topicId} (empty when the commit does
     * not say).
     */
    public record Reach(long copiedBefore, CopyBounds copies, Optional<Uuid> topicId) {
    }

    /** For each source partition that was copied from: how far. */
    public Map<TopicPartition, Reach> reach(Set<TopicPartition> sources) {
        Map<TopicPartition, TopicPartition> sourceOf = new HashMap<>();
        sources.forEach(tp -> sourceOf.put(keyOf.apply(tp), tp));
        Map<TopicPartition, Reach> reached = new HashMap<>();
        reader.committed(sourceOf.keySet(), timeout).forEach((key, offset) -> {
            if (offset != null) {
                reached.put(sourceOf.get(key), new Reach(offset.offset(),
                        CopyBounds.decode(CommitMetadata.sinkData(offset.metadata())),
                        CommitMetadata.topicId(offset.metadata())));
            }
        });
        return reached;
    }

    @Override
    public void close() {
        reader.close(Duration.ofSeconds(5));
    }
}
