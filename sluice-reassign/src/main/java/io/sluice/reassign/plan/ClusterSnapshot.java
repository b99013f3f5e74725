package io.sluice.reassign.plan;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;
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

    /**
     * This snapshot with every log dir taken as a volume of {@code capacity} bytes that holds nothing but its
     * replicas: for log dirs on a volume shared with other data, or under a quota the broker does not see.
     */
    public ClusterSnapshot withLogDirCapacity(long capacity) {
        // a capacity below what a log dir holds would show it full now (its replicas' bytes read as the capacity)
        // and every figure after that from the wrong start
        logDirs.stream().filter(d -> d.replicaBytes() > capacity).max(Comparator.comparingLong(LogDir::replicaBytes))
                .ifPresent(d -> {
                    throw new IllegalArgumentException(String.format(Locale.ROOT, "a log dir's capacity of %,d bytes "
                            + "is less than broker %d's log dir %s holds now (%,d bytes of replicas): give the size "
                            + "of the volumes the log dirs are on", capacity, d.broker(), d.path(), d.replicaBytes()));
                });
        return new ClusterSnapshot(brokers, partitions, logDirs.stream()
                .map(d -> new LogDir(d.broker(), d.path(), capacity, Math.max(0, capacity - d.replicaBytes()),
                        d.replicaBytes()))
                .toList());
    }

    public List<LogDir> logDirs(int broker) {
        return logDirs.stream().filter(d -> d.broker() == broker).toList();
    }
}
