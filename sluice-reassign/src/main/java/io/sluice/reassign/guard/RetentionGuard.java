package io.sluice.reassign.guard;

import io.sluice.reassign.execute.TemporaryConfig;
import io.sluice.reassign.plan.ClusterSnapshot;
import io.sluice.reassign.plan.PartitionState;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Seed 002's guard against a move flooding disks: a temporary {@code retention.bytes} per topic, so that no partition
 * grows past what the disk can take during the move, and none loses a record by the guard's setting alone (the limit
 * starts at its largest partition's size). Kafka's time retention follows the largest record timestamp of a segment,
 * not the file's time (docs/reassign.md has the measurement), so it is set only where that still fails to bound the
 * size: topics whose segments are pinned by future or missing timestamps (their partitions may grow by the allowance),
 * and topics moving to a log dir whose peak is tight (their partitions may grow by their share of what the dir has left
 * under {@code --max-disk-use}: a 10% allowance there deleted 12,477 records of a topic written to during a move that
 * added nothing to a disk already at 72% of 80%, a new user's run). A topic whose own {@code retention.bytes} is
 * already lower keeps it.
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
     * What the tightest log dir a topic's replicas move to has left: how much each replica moving there may grow.
     *
     * @param perReplica the bytes left under the limit at the move's peak, shared by the guarded replicas moving there
     */
    public record Room(int broker, String logDir, long perReplica, double peakShare, double maxShare) {
    }

    /** A topic's temporary retention.bytes for the move, with why, in words. */
    public record Guard(TemporaryConfig config, String why) {
    }

    /**
     * The guards of the {@code pinned} topics and of the topics moving to a {@code tight} log dir; {@code current}
     * holds each topic's own retention.bytes if it has one.
     */
    public static List<Guard> of(ClusterSnapshot snapshot, Set<String> pinned, Map<String, Room> tight,
            double allowance, Map<String, Long> current) {
        Set<String> topics = new TreeSet<>(pinned);
        topics.addAll(tight.keySet());
        List<Guard> guards = new ArrayList<>();
        for (String topic : topics) {
            long largest = largest(snapshot, topic);
            long limit = Long.MAX_VALUE;
            List<String> why = new ArrayList<>();
            if (pinned.contains(topic)) {
                limit = limit(snapshot, topic, allowance);
                why.add(String.format(Locale.ROOT, "records dated ahead, or without a timestamp, keep its segments past "
                        + "its retention.ms, so its partitions may grow by %.0f%% (--retention-allowance)",
                        (allowance - 1) * 100));
            }
            Room room = tight.get(topic);
            if (room != null) {
                limit = Math.min(limit, largest + room.perReplica());
                // the limit is per partition and the same for all: a partition smaller than the largest may grow
                // by more than the share, so the words say what the limit is, not how much each grows
                why.add(String.format(Locale.ROOT, "broker %d's %s would be at %.1f%% of its disk at the move's peak, "
                        + "within 10 points of --max-disk-use %.0f%%, so a partition of it may hold its largest "
                        + "partition's bytes and the topic's share of what is left there, %s", room.broker(),
                        room.logDir(), room.peakShare() * 100, room.maxShare() * 100,
                        megabytes(room.perReplica())));
            }
            Long own = current.get(topic);
            if (largest > 0 && (own == null || own < 0 || own > limit)) {
                guards.add(new Guard(TemporaryConfig.topic(topic, RETENTION_BYTES, Long.toString(limit)),
                        String.join("; and ", why)));
            }
        }
        return guards;
    }

    /**
     * The largest partition's bytes (one replica's) x allowance; 0 for an empty topic. The limit applies to every
     * partition of the topic: at the seed's average partition size (topic bytes / partitions / replication factor) a
     * partition larger than the average lost its oldest records the moment the guard was set, records no retention
     * had made due (a new user's skewed topic lost 24,768 of 30,000). At the largest, no record is deleted until a
     * partition grows past the allowance during the move, which is the guard's point.
     */
    public static long limit(ClusterSnapshot snapshot, String topic, double allowance) {
        return (long) (largest(snapshot, topic) * allowance);
    }

    private static long largest(ClusterSnapshot snapshot, String topic) {
        return snapshot.partitions().stream().filter(p -> p.topic().equals(topic))
                .mapToLong(PartitionState::bytes).max().orElse(0);
    }

    private static String megabytes(long bytes) {
        return String.format(Locale.ROOT, "%,.1f MB", bytes / 1e6);
    }
}
