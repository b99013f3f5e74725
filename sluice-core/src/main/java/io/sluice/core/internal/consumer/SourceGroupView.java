package io.sluice.core.internal.consumer;

import io.sluice.core.commit.SourceGroup;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsSpec;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetCommitCallback;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;

/**
 * The engine's consumer seen as a {@link SourceGroup}: committed offsets and fenced commits, nothing else; and the
 * engine's admin client for reads of the group's offsets that must not hold the consumer thread.
 *
 * <p>Threading: the consumer thread only; {@link #committedAsync}'s future completes on the admin client's thread.
 */
public final class SourceGroupView implements SourceGroup {

    private final Consumer<?, ?> consumer;
    private final Admin admin;
    private final String groupId;

    public SourceGroupView(Consumer<?, ?> consumer, Admin admin, String groupId) {
        this.consumer = consumer;
        this.admin = admin;
        this.groupId = groupId;
    }

    @Override
    public String groupId() {
        return groupId;
    }

    @Override
    public ConsumerGroupMetadata groupMetadata() {
        return consumer.groupMetadata();
    }

    @Override
    public Map<TopicPartition, OffsetAndMetadata> committed(Set<TopicPartition> partitions, Duration timeout) {
        return consumer.committed(partitions, timeout);
    }

    /** The admin client lists a partition never committed with a null offset: left out, as the contract says. */
    @Override
    public KafkaFuture<Map<TopicPartition, OffsetAndMetadata>> committedAsync(Set<TopicPartition> partitions) {
        return admin.listConsumerGroupOffsets(Map.of(groupId,
                        new ListConsumerGroupOffsetsSpec().topicPartitions(Set.copyOf(partitions))))
                .partitionsToOffsetAndMetadata(groupId)
                .thenApply(found -> {
                    Map<TopicPartition, OffsetAndMetadata> committed = new HashMap<>();
                    found.forEach((tp, offset) -> {
                        if (offset != null) {
                            committed.put(tp, offset);
                        }
                    });
                    return committed;
                });
    }

    @Override
    public void commitAsync(Map<TopicPartition, OffsetAndMetadata> offsets, OffsetCommitCallback callback) {
        consumer.commitAsync(offsets, callback);
    }

    /**
     * {@code wakeup()} is how the engine ends its poll loop (close, failure), and the final commit right after must
     * still happen: a wakeup pending from that is consumed by the first try.
     */
    @Override
    public void commitSync(Map<TopicPartition, OffsetAndMetadata> offsets, Duration timeout) {
        try {
            consumer.commitSync(offsets, timeout);
        } catch (WakeupException e) {
            consumer.commitSync(offsets, timeout);
        }
    }
}
