package io.sluice.reassign.guard;

import io.sluice.reassign.cluster.AdminCalls;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartition;

/**
 * Finds topics whose segments time retention cannot bound while they move: a record dated in the future holds its
 * segment until that date passes (KIP-937), and a segment whose records carry no timestamp (-1) is expired by its
 * file's modification time, which the copy of a moved replica resets (seed 002's failure). Asks each partition's
 * leader for its largest timestamp (ListOffsets, max timestamp): -1 on a partition holding records means none of
 * them has one.
 *
 * <p>Threading: stateless apart from the caller's admin client, which is thread-safe.
 */
public final class PinnedSegments {

    /**
     * Clocks of producers drift; a record this far ahead is a future-dated one. Brokers accept records up to
     * {@code message.timestamp.after.max.ms} ahead (1 hour by default since Kafka 3.6), so the mark is well below.
     */
    static final Duration FUTURE = Duration.ofMinutes(5);

    private final Admin admin;

    public PinnedSegments(Admin admin) {
        this.admin = admin;
    }

    public Set<String> among(Collection<String> topics) {
        if (topics.isEmpty()) {
            return Set.of();
        }
        Map<String, TopicDescription> described = AdminCalls.get(admin.describeTopics(topics).allTopicNames(),
                "describe topics");
        Map<TopicPartition, OffsetSpec> earliest = new HashMap<>();
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        Map<TopicPartition, OffsetSpec> largest = new HashMap<>();
        described.forEach((name, topic) -> topic.partitions().forEach(p -> {
            earliest.put(new TopicPartition(name, p.partition()), OffsetSpec.earliest());
            latest.put(new TopicPartition(name, p.partition()), OffsetSpec.latest());
            largest.put(new TopicPartition(name, p.partition()), OffsetSpec.maxTimestamp());
        }));
        Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> starts = AdminCalls.get(
                admin.listOffsets(earliest).all(), "list start offsets");
        Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> ends = AdminCalls.get(admin.listOffsets(latest).all(),
                "list end offsets");
        Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> max = AdminCalls.get(admin.listOffsets(largest).all(),
                "list largest timestamps");
        long future = System.currentTimeMillis() + FUTURE.toMillis();
        Set<String> pinned = new TreeSet<>();
        max.forEach((tp, info) -> {
            boolean hasRecords = ends.get(tp).offset() > starts.get(tp).offset();
            if (hasRecords && (info.timestamp() > future || info.timestamp() < 0)) {
                pinned.add(tp.topic());
            }
        });
        return pinned;
    }
}
