package io.sluice.reassign.guard;

import io.sluice.reassign.execute.TemporaryConfig;
import io.sluice.reassign.plan.ClusterSnapshot;
import io.sluice.reassign.plan.PartitionState;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Seed 002's guard against a move flooding disks: a temporary {@code retention.bytes} per topic of
 * (topic bytes on disk / partitions / replication factor) x allowance, so each partition stays near its average size
 * while time retention cannot expire it. Kafka's time retention follows the largest record timestamp of a segment,
 * not the file's time (docs/reassign.md has the measurement), so it is set only where that still fails to bound
 * the size: topics whose segments are pinned by future or missing timestamps, and topics moving to a log dir whose
 * peak is tight. A topic whose own {@code retention.bytes} is already lower keeps it.
 *
 * <p>Pure. Threading: stateless.
 */
public final class RetentionGuard {

    public static final String RETENTION_BYTES = "retention.bytes";

    private RetentionGuard() {
    }

    /**
     * The temporary configs for {@code topics} (the guarded ones); {@code current} holds each topic's own
     * retention.bytes if it has one.
     */
    public static List<TemporaryConfig> of(ClusterSnapshot snapshot, Set<String> topics, double allowance,
            Map<String, Long> current) {
        List<TemporaryConfig> configs = new ArrayList<>();
        for (String topic : new TreeSet<>(topics)) {
            long limit = limit(snapshot, topic, allowance);
            Long own = current.get(topic);
            if (limit > 0 && (own == null || own < 0 || own > limit)) {
                configs.add(TemporaryConfig.topic(topic, RETENTION_BYTES, Long.toString(limit)));
            }
        }
        return configs;
    }

    /** (bytes of every replica of the topic / partitions / replication factor) x allowance; 0 for an empty topic. */
    public static long limit(ClusterSnapshot snapshot, String topic, double allowance) {
        List<PartitionState> partitions = snapshot.partitions().stream().filter(p -> p.topic().equals(topic)).toList();
        if (partitions.isEmpty()) {
            return 0;
        }
        long replicaBytes = partitions.stream().mapToLong(p -> p.bytes() * p.replicas().size()).sum();
        int replicationFactor = partitions.get(0).replicas().size();
        return (long) ((double) replicaBytes / partitions.size() / replicationFactor * allowance);
    }
}
