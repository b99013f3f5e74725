package io.sluice.reassign.plan;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Each log dir's bytes now, at peak and after a list of moves. An incoming replica is counted on its broker's log dir
 * with the most free bytes (where it lands cannot be known before; with one log dir per broker it is exact); an
 * outgoing replica on the log dir that holds it. The peak counts every incoming replica and no outgoing one: a
 * whole batch may be copied before the first old replica is deleted, and a plan's batches are not promised to
 * finish in any order.
 *
 * <p>Pure. Threading: stateless.
 */
public final class DiskProjection {

    private DiskProjection() {
    }

    public static List<DiskUse> of(ClusterSnapshot snapshot, List<PartitionMove> moves) {
        Map<String, PartitionState> partitions = new HashMap<>();
        snapshot.partitions().forEach(p -> partitions.put(p.name(), p));
        Map<String, Long> incoming = new HashMap<>();
        Map<String, Long> outgoing = new HashMap<>();
        for (PartitionMove move : moves) {
            PartitionState state = partitions.get(move.topic() + "-" + move.partition());
            for (int b : move.adding()) {
                destination(snapshot, b).ifPresent(dir -> incoming.merge(key(b, dir.path()), move.bytes(), Long::sum));
            }
            for (int b : move.removing()) {
                String dir = state == null ? null : state.logDirs().get(b);
                if (dir != null) {
                    long bytes = state.bytes();
                    outgoing.merge(key(b, dir), bytes, Long::sum);
                }
            }
        }
        List<DiskUse> uses = new ArrayList<>();
        for (LogDir dir : snapshot.logDirs()) {
            String key = key(dir.broker(), dir.path());
            long now = dir.usedBytes();
            long in = incoming.getOrDefault(key, 0L);
            long out = outgoing.getOrDefault(key, 0L);
            uses.add(new DiskUse(dir.broker(), dir.path(), dir.capacityKnown() ? dir.totalBytes() : -1, now, now + in,
                    Math.max(0, now + in - out)));
        }
        uses.sort(Comparator.comparingInt(DiskUse::broker).thenComparing(DiskUse::logDir));
        return uses;
    }

    private static java.util.Optional<LogDir> destination(ClusterSnapshot snapshot, int broker) {
        return snapshot.logDirs(broker).stream()
                .max(Comparator.comparingLong((LogDir d) -> d.capacityKnown() ? d.usableBytes() : -d.replicaBytes()));
    }

    private static String key(int broker, String dir) {
        return broker + ":" + dir;
    }
}
