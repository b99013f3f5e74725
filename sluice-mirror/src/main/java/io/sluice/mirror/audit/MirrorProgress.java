package io.sluice.mirror.audit;

import io.sluice.mirror.MirrorDelivery;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * How far the mirror copied: per source partition, the source offset after the last record copied. Exactly once it is
 * the target's progress group, keyed by the target topic's partition and committed in the transaction of the copies;
 * at least once it is the source group's committed offsets. A partition the mirror has not committed for is left out.
 *
 * <p>Stateless.
 */
final class MirrorProgress {

    private MirrorProgress() {
    }

    /** The progress of {@code partitions} (source partitions) as the mirror of {@code config} committed it. */
    static Map<TopicPartition, Long> read(MirrorAuditConfig config, List<TopicPartition> partitions) {
        boolean exactlyOnce = config.delivery() == MirrorDelivery.EXACTLY_ONCE;
        Map<TopicPartition, TopicPartition> keys = new HashMap<>();
        for (TopicPartition tp : partitions) {
            keys.put(exactlyOnce ? new TopicPartition(config.naming().target(tp.topic()), tp.partition()) : tp, tp);
        }
        Map<String, Object> props = new HashMap<>(exactlyOnce ? config.targetProperties()
                : config.sourceProperties());
        props.put(ConsumerConfig.GROUP_ID_CONFIG, exactlyOnce ? config.progressGroup() : config.sourceGroup());
        props.remove(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG);
        // read_committed makes committed() wait for offsets of a transaction still pending, which Admin leaves out
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, "sluice-mirror-audit.progress");
        String where = exactlyOnce ? "the target's group " + config.progressGroup()
                : "the source's group " + config.sourceGroup();
        Duration timeout = config.timeout();
        KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(),
                new ByteArrayDeserializer());
        try {
            Set<TopicPartition> asked = new HashSet<>(keys.keySet());
            Map<TopicPartition, OffsetAndMetadata> committed = consumer.committed(asked, timeout);
            Map<TopicPartition, Long> progress = new HashMap<>();
            committed.forEach((key, offset) -> {
                if (offset != null) {
                    progress.put(keys.get(key), offset.offset());
                }
            });
            return progress;
        } catch (KafkaException e) {
            throw new MirrorAuditException("cannot read the mirror's progress from " + where + ": " + e.getMessage(),
                    e);
        } finally {
            // the consumer never joined its group: nothing to leave
            consumer.close(CloseOptions.timeout(Duration.ZERO));
        }
    }
}
