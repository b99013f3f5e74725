package io.sluice.mirror.topics;

import io.sluice.core.commit.CommitPoint;
import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;

/**
 * A mirror's commit point: the exactly-once or at-least-once one, with the target topics made ready before a claim
 * (the target's group coordinator refuses the progress of a topic it does not have, and the first copy needs its
 * partition). Everything else is the wrapped commit point's.
 *
 * <p>Threading: the wrapped commit point's.
 */
public final class TopicsFirst implements CommitPoint {

    private final CommitPoint commitPoint;
    private final TargetTopics topics;

    public TopicsFirst(CommitPoint commitPoint, TargetTopics topics) {
        this.commitPoint = commitPoint;
        this.topics = topics;
    }

    @Override
    public Map<TopicPartition, OffsetAndMetadata> claim(Set<TopicPartition> partitions, Duration timeout) {
        topics.ensure(partitions);
        return commitPoint.claim(partitions, timeout);
    }

    @Override
    public String describe() {
        return commitPoint.describe();
    }

    @Override
    public void commit(Map<TopicPartition, OffsetAndMetadata> offsets, Outcome outcome) {
        commitPoint.commit(offsets, outcome);
    }

    @Override
    public void commitNow(Map<TopicPartition, OffsetAndMetadata> offsets, Duration timeout) {
        commitPoint.commitNow(offsets, timeout);
    }

    @Override
    public boolean commitsInLane() {
        return commitPoint.commitsInLane();
    }

    @Override
    public Optional<Duration> recommitInterval() {
        return commitPoint.recommitInterval();
    }

    /**
     * The wrapped commit point's progress: for an exactly-once mirror the target's progress group, never the source
     * group (which an exactly-once mirror never commits to, so a bounded run asking it would wait for ever).
     */
    @Override
    public KafkaFuture<Map<TopicPartition, OffsetAndMetadata>> committedProgress(Set<TopicPartition> partitions) {
        return commitPoint.committedProgress(partitions);
    }

    @Override
    public boolean refusedForCertain(Exception error) {
        return commitPoint.refusedForCertain(error);
    }

    @Override
    public void settleInFlight(Duration timeout) {
        commitPoint.settleInFlight(timeout);
    }

    @Override
    public void release(Collection<TopicPartition> partitions, boolean lost) {
        commitPoint.release(partitions, lost);
    }

    @Override
    public void close() {
        commitPoint.close();
    }
}
