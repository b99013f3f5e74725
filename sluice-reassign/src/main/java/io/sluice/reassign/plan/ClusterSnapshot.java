package io.sluice.reassign.plan;

import java.util.List;
import java.util.Optional;

/**
 * What the planner knows of a cluster at one moment: brokers, partitions and log dirs.
 *
 * <p>Immutable.
 */
public record ClusterSnapshot(List<Broker> brokers, List<PartitionState> partitions, List<LogDir> logDirs) {

    public ClusterSnapshot {
        brokers = List.copyOf(brokers);
        partitions = List.copyOf(partitions);
        logDirs = List.copyOf(logDirs);
    }

    public Optional<Broker> broker(int id) {
        return brokers.stream().filter(b -> b.id() == id).findFirst();
    }

    public List<LogDir> logDirs(int broker) {
        return logDirs.stream().filter(d -> d.broker() == broker).toList();
    }
}
