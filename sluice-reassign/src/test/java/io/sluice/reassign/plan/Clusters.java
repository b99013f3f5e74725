package io.sluice.reassign.plan;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Builds cluster snapshots for planner tests: brokers with racks and one log dir each, partitions with sizes. */
final class Clusters {

    private final List<Broker> brokers = new ArrayList<>();
    private final List<PartitionState> partitions = new ArrayList<>();
    private final Map<Integer, Long> capacity = new HashMap<>();
    private final Map<Integer, Long> otherBytes = new HashMap<>();

    Clusters broker(int id, String rack) {
        brokers.add(new Broker(id, rack));
        return this;
    }

    Clusters brokers(int... ids) {
        for (int id : ids) {
            broker(id, null);
        }
        return this;
    }

    /** The broker's volume: {@code total} bytes, of which {@code other} are used by something else than Kafka. */
    Clusters disk(int broker, long total, long other) {
        capacity.put(broker, total);
        otherBytes.put(broker, other);
        return this;
    }

    Clusters partition(String topic, int partition, long bytes, Integer... replicas) {
        Map<Integer, String> dirs = new HashMap<>();
        for (int b : replicas) {
            dirs.put(b, dir(b));
        }
        partitions.add(new PartitionState(topic, partition, List.of(replicas), dirs, bytes));
        return this;
    }

    /** {@code partitions} partitions of {@code bytes} each, with 3 replicas on brokers 1 to 3, leaders spread. */
    Clusters onFirstThree(String topic, int partitions, long bytes) {
        for (int p = 0; p < partitions; p++) {
            partition(topic, p, bytes, 1 + p % 3, 1 + (p + 1) % 3, 1 + (p + 2) % 3);
        }
        return this;
    }

    ClusterSnapshot snapshot() {
        List<LogDir> dirs = new ArrayList<>();
        for (Broker b : brokers) {
            long replicaBytes = partitions.stream().filter(p -> p.replicas().contains(b.id()))
                    .mapToLong(PartitionState::bytes).sum();
            long total = capacity.getOrDefault(b.id(), -1L);
            long used = replicaBytes + otherBytes.getOrDefault(b.id(), 0L);
            dirs.add(new LogDir(b.id(), dir(b.id()), total, total < 0 ? -1 : total - used, replicaBytes));
        }
        return new ClusterSnapshot(brokers, partitions, dirs);
    }

    static String dir(int broker) {
        return "/data/broker-" + broker;
    }
}
