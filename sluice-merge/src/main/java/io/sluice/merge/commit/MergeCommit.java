package io.sluice.merge.commit;

import io.sluice.core.commit.TargetTransactionCommit;
import io.sluice.core.commit.TargetWait;
import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;

/**
 * How a merge writes each output partition and makes its progress true, by the merge's delivery:
 * {@link TransactionalCommit} (exactly once: the records and the state in one transaction) or
 * {@link AcknowledgedCommit} (at least once: the records acknowledged first, then the state committed by the owners
 * group's member). Both keep the same state text (docs/merge.md), each in its own group ({@code stateGroup}).
 *
 * <p>Threading: {@link #claim} and {@link #release} on the owners group's thread; {@link #sender}, {@link #flush} and
 * {@link #commit} on the worker that merges the partition (only after its claim, before its release); {@link #close}
 * once, at the end; {@link #producerMetrics} from any thread.
 */
public interface MergeCommit extends AutoCloseable {

    /**
     * The partitions are this instance's now: prepares their writers, fences what can be fenced of earlier owners,
     * and reads each one's committed state (absent: never committed). Refuses, in words, a partition whose state is
     * kept under the other delivery.
     */
    Map<TopicPartition, OffsetAndMetadata> claim(Set<TopicPartition> partitions, Duration timeout);

    /** Where the worker sends what it merges for {@code output} (and its late records and dead letters). */
    TargetTransactionCommit.Sender sender(TopicPartition output);

    /**
     * Returns once every record sent for {@code output} so far has its answer from the target (then a failed send is
     * known before the commit that would move past it); a transaction needs nothing here, its commit waits.
     */
    void flush(TopicPartition output);

    /** Makes {@code state} the committed state of {@code output}, with what was sent before it; throws if not. */
    void commit(TopicPartition output, OffsetAndMetadata state, Duration timeout) throws Exception;

    /** The metrics of each producer writing to the target now (live views), for a {@code TargetReach}; any thread. */
    Collection<Map<MetricName, ? extends Metric>> producerMetrics();

    /**
     * What a {@link #commit} waits for in the target, for a {@code TargetBrokers}: a transaction's commit (the
     * producers' coordinators), or null at least once, where the owners group's consumer commits (not a producer,
     * whose counts would say nothing of it).
     */
    default TargetWait.Kind commitWait() {
        return null;
    }

    /** The transactional id of each output partition's producer now, for a {@code TargetRoles}; none at least once. */
    default Map<TopicPartition, String> transactionalIds() {
        return Map.of();
    }

    /**
     * The merge stops without its last commits (the target does not answer): a flush or a commit waiting on the target
     * stops waiting and throws, and nothing more is committed. What was not committed is merged again by the next
     * start. From the owners group's thread, once.
     */
    void abandon();

    /** The partitions are no longer this instance's: revoked after their last commit, or {@code lost}. */
    void release(Collection<TopicPartition> partitions, boolean lost);

    @Override
    void close();
}
