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
 * Seed 002's guard against a move flooding disks: a temporary {@code retention.bytes} per topic of its largest
 * partition's size x allowance, so no partition grows much during the move while time retention cannot expire it,
 * and none loses a record by the guard's setting alone. Kafka's time retention follows the largest record timestamp of a segment,
 * not the file's time (docs/reassign.md has the measurement), so it is set only where that still fails to bound
 * the size: topics whose segments are pinned by future or missing timestamps, and topics moving to a log dir whose
 * peak is tight. A topic whose own {@code retention.bytes} is already lower keeps it.
 *
 * <p>Pure. Threading: stateless.
 */
public final class RetentionGuard {

    public static final String RETENTION_BYTES = "retention.bytes";
    /** A topic whose policy compacts is never guarded: its old segments hold the latest value of keys. */
    public static final String CLEANUP_POLICY = "cleanup.policy";

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

    /**
     * The largest partition's bytes (one replica's) x allowance; 0 for an empty topic. The limit applies to every
     * partition of the topic: at the seed's average partition size (topic bytes / partitions / replication factor) a
     * partition larger than the average lost its oldest records the moment the guard was set, records no retention
     * had made due (a new user's skewed topic lost 24,768 of 30,000). At the largest, no record is deleted until a
     * partition grows past the allowance during the move, which is the guard's point.
     */
    public static long limit(ClusterSnapshot snapshot, String topic, double allowance) {
        long largest = snapshot.partitions().stream().filter(p -> p.topic().equals(topic))
                .mapToLong(PartitionState::bytes).max().orElse(0);
        return (long) (largest * allowance);
    }
}
