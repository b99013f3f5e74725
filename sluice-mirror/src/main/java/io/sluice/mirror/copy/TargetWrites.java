package io.sluice.mirror.copy;

import java.util.Collection;
import java.util.Map;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;

/**
 * How copies reach the target cluster, per source partition: into the partition's transaction (exactly once), or
 * through one idempotent producer whose acknowledgements a checkpoint waits for (at least once).
 *
 * <p>Threading: each source partition's calls come from its lane, one at a time; partitions run in parallel;
 * {@link #producerMetrics} from any thread.
 */
public interface TargetWrites extends AutoCloseable {

    /**
     * Sends a copy of a record of {@code source}; a failure surfaces at the latest in the next {@link #flush}.
     *
     * @return where the copy landed, once the target took it
     */
    Future<RecordMetadata> send(TopicPartition source, ProducerRecord<byte[], byte[]> copy);

    /**
     * Before a checkpoint: returns once every copy sent for {@code source} is written where the checkpoint's commit
     * makes it count, and throws when one was not.
     */
    void flush(TopicPartition source) throws Exception;

    /** The metrics of each producer writing to the target now (live views), for a {@code TargetReach}; any thread. */
    Collection<Map<MetricName, ? extends Metric>> producerMetrics();

    /**
     * The engine failed: no copy sent so far will be committed, so nothing waits for them any more. A {@link #flush}
     * under way or to come throws, and the producers are let go of at once. Any thread.
     */
    default void abandon() {
    }

    /** {@code source} is no longer this member's. */
    default void forget(TopicPartition source) {
    }

    @Override
    default void close() {
    }
}
