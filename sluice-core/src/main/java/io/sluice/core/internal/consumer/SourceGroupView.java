package io.sluice.core.internal.consumer;

import io.sluice.core.commit.SourceGroup;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetCommitCallback;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;

/**
 * The engine's consumer seen as a {@link SourceGroup}: committed offsets and fenced commits, nothing else.
 *
 * <p>Threading: the consumer thread only.
 */
public final class SourceGroupView implements SourceGroup {

    private final Consumer<?, ?> consumer;
    private final String groupId;

    public SourceGroupView(Consumer<?, ?> consumer, String groupId) {
        this.consumer = consumer;
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
