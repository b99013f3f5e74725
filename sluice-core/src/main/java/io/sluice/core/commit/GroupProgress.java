package io.sluice.core.commit;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsOptions;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;

/**
 * A read of a group's committed offsets that hold the progress of other partitions than their own: a target's
 * progress group keeps each source partition's progress under the partition its copies go to. Keyed back by source
 * partition; a partition never committed is absent.
 *
 * <p>Threading: stateless; the answer completes on the admin client's thread.
 */
public final class GroupProgress {

    private GroupProgress() {
    }

    /**
     * @param keyOf         the partition a source partition's progress is kept under in {@code group}
     * @param requireStable whether an offset pending in an open transaction is waited for (true), or read as the one
     *                      committed before it (false)
     */
    public static KafkaFuture<Map<TopicPartition, OffsetAndMetadata>> read(Admin admin, String group,
            Function<TopicPartition, TopicPartition> keyOf, Set<TopicPartition> sources, boolean requireStable) {
        Map<TopicPartition, TopicPartition> sourceOf = new HashMap<>();
        sources.forEach(tp -> sourceOf.put(keyOf.apply(tp), tp));
        return admin.listConsumerGroupOffsets(
                        Map.of(group, new ListConsumerGroupOffsetsSpec().topicPartitions(sourceOf.keySet())),
                        new ListConsumerGroupOffsetsOptions().requireStable(requireStable))
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
}
