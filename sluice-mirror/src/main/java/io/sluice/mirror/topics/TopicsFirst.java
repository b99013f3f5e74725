package io.sluice.mirror.topics;

import io.sluice.core.commit.CommitPoint;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;

/**
 * A mirror's commit point: the exactly-once or at-least-once one, with the target topics made ready before a claim
 * (the target's group coordinator refuses the progress of a topic it does not have, and the first copy needs its
 * partition), each partition's progress taken from the mirror's other delivery when that went further (the delivery
 * was changed: {@link EarlierDelivery}), and a word after it when partitions without progress already hold records in
 * the target ({@link ForeignRecords}). Everything else is the wrapped commit point's.
 *
 * <p>Threading: the wrapped commit point's.
 */
public final class TopicsFirst implements CommitPoint {

    private final CommitPoint commitPoint;
    /** How long a claim waits for the target's answer about records already there, after its own round trips. */
    private static final Duration FOREIGN_WAIT = Duration.ofSeconds(2);

    private final TargetTopics topics;
    private final EarlierDelivery earlier;
    private final ForeignRecords foreign;
    private final LostProgress lost;

    /**
     * @param targetProperties the target's client settings, to read back the last copies of a partition without
     *                         progress ({@link LostProgress})
     */
    public TopicsFirst(CommitPoint commitPoint, TargetTopics topics, EarlierDelivery earlier, String mirror,
            boolean exactlyOnce, Map<String, Object> targetProperties, String sourceClusterId, String progressGroup) {
        this.commitPoint = commitPoint;
        this.topics = topics;
        this.earlier = earlier;
        this.foreign = topics.foreignRecords(mirror, exactlyOnce);
        this.lost = topics.lostProgress(targetProperties, sourceClusterId, mirror, progressGroup, exactlyOnce);
    }

    @Override
    public Map<TopicPartition, OffsetAndMetadata> claim(Set<TopicPartition> partitions, Duration timeout) {
        topics.ensure(partitions);
        long deadline = System.nanoTime() + timeout.toNanos(); // one wait for the claim and what it asks beside it
        ForeignRecords.Asked held = foreign.ask(partitions);
        EarlierDelivery.Asked earlierCommits = earlier.ask(partitions);
        Map<TopicPartition, OffsetAndMetadata> claimed = earlier.later(partitions,
                commitPoint.claim(partitions, timeout), earlierCommits, held.ranges(), deadline);
        List<TopicPartition> withoutProgress = partitions.stream().filter(tp -> claimed.get(tp) == null).toList();
        lost.refuseIfCopied(held.of(withoutProgress, FOREIGN_WAIT));
        held.warnFor(withoutProgress, FOREIGN_WAIT);
        return claimed;
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
    public void abandon() {
        commitPoint.abandon();
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
