package io.sluice.core.internal.consumer;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;

/**
 * The partitions this member owns now, each with its state for this assignment. Every role of the consumer thread
 * (dispatch, pauses, commits, gauges) looks partitions up here; only {@link Assignments} adds and removes them.
 *
 * <p>Threading: the consumer thread only.
 */
final class AssignedPartitions {

    private final Map<TopicPartition, PartitionState> byPartition = new HashMap<>();
    /** Made once: the bounded run's end check asks for it on every loop. */
    private final Map<TopicPartition, PartitionState> readOnly = java.util.Collections.unmodifiableMap(byPartition);
    private boolean changed;

    PartitionState get(TopicPartition partition) {
        return byPartition.get(partition);
    }

    Collection<PartitionState> all() {
        return byPartition.values();
    }

    Set<TopicPartition> keys() {
        return byPartition.keySet();
    }

    /** A read-only view, for the bounded run's end check. */
    Map<TopicPartition, PartitionState> asMap() {
        return readOnly;
    }

    int size() {
        return byPartition.size();
    }

    void add(PartitionState p) {
        byPartition.put(p.partition, p);
        changed = true;
    }

    void remove(PartitionState p) {
        byPartition.remove(p.partition);
        changed = true;
    }

    /** Forgets every partition without a revoke: after the final commit on close. */
    void clear() {
        byPartition.clear();
        changed = true;
    }

    /** Whether the assignment changed since the last call (gauges refresh the per-partition view then). */
    boolean takeChanged() {
        boolean was = changed;
        changed = false;
        return was;
    }
}
