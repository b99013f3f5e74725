package io.sluice.reassign.plan;

import java.util.List;
import java.util.Map;

/**
 * A partition as the cluster holds it: its replicas in order (the first is the preferred leader), the log dir of
 * each replica, and its size (the largest replica's, what a new replica must copy).
 *
 * <p>Immutable.
 */
public record PartitionState(String topic, int partition, List<Integer> replicas, Map<Integer, String> logDirs,
        long bytes) {

    public PartitionState {
        replicas = List.copyOf(replicas);
        logDirs = Map.copyOf(logDirs);
    }

    public String name() {
        return topic + "-" + partition;
    }
}
