package io.sluice.core.commit;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetCommitCallback;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;

/**
 * The engine's source consumer group, as much of it as a {@link CommitPoint} may use: its committed offsets and its
 * commits, which the group coordinator fences by generation. Not the consumer itself, so that a commit point cannot
 * poll, seek or pause behind the engine's back.
 *
 * <p>Threading: the engine's consumer thread only, like the consumer behind it; {@link #committedAsync}'s future
 * completes on another thread.
 */
public interface SourceGroup {

    String groupId();

    /** The group's member and generation, as a transaction that commits the group's offsets needs them. */
    ConsumerGroupMetadata groupMetadata();

    /** The group's committed offsets; a partition never committed is absent. */
    Map<TopicPartition, OffsetAndMetadata> committed(Set<TopicPartition> partitions, Duration timeout);

    /**
     * The group's committed offsets as its coordinator has them now, read without the consumer (whose calls would
     * hold the consumer thread) and without claiming anything; a partition never committed is absent.
     */
    KafkaFuture<Map<TopicPartition, OffsetAndMetadata>> committedAsync(Set<TopicPartition> partitions);

    /** A commit fenced by this member's generation; the callback runs inside a later call to the consumer. */
    void commitAsync(Map<TopicPartition, OffsetAndMetadata> offsets, OffsetCommitCallback callback);

    /** A commit fenced by this member's generation, waited for; a pending wakeup does not cancel it. */
    void commitSync(Map<TopicPartition, OffsetAndMetadata> offsets, Duration timeout);
}
