package io.sluice.core.internal.consumer;

import io.sluice.core.commit.CommitPoint;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;

/**
 * A commit point that commits in the partition's lane, as a target's transaction does, for the engine's unit tests:
 * it claims nothing, knows no progress and calls no failure certain; each test says what a commit does.
 */
public abstract class TestLaneCommitPoint implements CommitPoint {

    @Override
    public String describe() {
        return "the test's commits";
    }

    @Override
    public boolean commitsInLane() {
        return true;
    }

    @Override
    public Map<TopicPartition, OffsetAndMetadata> claim(Set<TopicPartition> claimed, Duration timeout) {
        return Map.of();
    }

    @Override
    public void commit(Map<TopicPartition, OffsetAndMetadata> offsets, Outcome outcome) {
        throw new UnsupportedOperationException("commits in the lane");
    }

    @Override
    public KafkaFuture<Map<TopicPartition, OffsetAndMetadata>> committedProgress(Set<TopicPartition> asked) {
        return KafkaFuture.completedFuture(Map.of());
    }

    @Override
    public boolean refusedForCertain(Exception error) {
        return false;
    }

    @Override
    public void settleInFlight(Duration timeout) {
    }
}
