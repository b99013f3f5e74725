package io.sluice.reassign.plan;

import java.util.List;
import org.apache.kafka.common.TopicPartition;

/**
 * One partition's new replica list. {@code bytes} is what each new replica copies; a move that only reorders the
 * replicas (a new preferred leader) copies nothing.
 *
 * <p>Immutable.
 */
public record PartitionMove(String topic, int partition, List<Integer> from, List<Integer> to, long bytes) {

    public PartitionMove {
        from = List.copyOf(from);
        to = List.copyOf(to);
    }

    public TopicPartition topicPartition() {
        return new TopicPartition(topic, partition);
    }

    /** Brokers that get a new replica. */
    public List<Integer> adding() {
        return to.stream().filter(b -> !from.contains(b)).toList();
    }

    /** Brokers whose replica is deleted once the new ones are in sync. */
    public List<Integer> removing() {
        return from.stream().filter(b -> !to.contains(b)).toList();
    }

    /** How many replicas are copied: what "fewest moves" counts. */
    public int replicaMoves() {
        return adding().size();
    }

    @Override
    public String toString() {
        return topic + "-" + partition + " " + from + " -> " + to;
    }
}
