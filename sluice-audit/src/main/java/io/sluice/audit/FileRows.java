package io.sluice.audit;

import io.sluice.storage.format.ArchivedRows;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The rows of one file, gathered per audited partition as offsets (bits), so a file is merged into the audit's
 * tally all at once, and only once it was read to its end.
 *
 * <p>It also notes which topics and partitions the rows name, so a file found under an unexpected name can be told
 * by its rows.
 *
 * <p>Threading: one thread (the one reading the file).
 */
final class FileRows implements ArchivedRows.Visitor {

    /** One partition's offsets in the file. */
    static final class PartitionRows {
        final OffsetSet offsets = new OffsetSet();
        /** Offsets on more than one row of this very file. */
        final OffsetSet repeated = new OffsetSet();
        long rows;
        long lowest = Long.MAX_VALUE;
        long highest = -1;
    }

    /** How many distinct other topics and partitions a file's description names at most. */
    private static final int NAMED_AT_MOST = 8;

    private final String topic;
    private final Set<Integer> audited;
    final Map<Integer, PartitionRows> partitions = new HashMap<>();
    long rows;
    long otherRows;
    /** Topics other than the audited one that rows name (at most a few), to say whose a file is. */
    final Set<String> otherTopics = new TreeSet<>();
    /** Partitions of the audited topic that rows name, audited or not (at most a few). */
    final Set<Integer> topicPartitions = new TreeSet<>();

    FileRows(String topic, Set<Integer> audited) {
        this.topic = topic;
        this.audited = audited;
    }

    @Override
    public void row(String rowTopic, int partition, long offset) {
        rows++;
        if (!topic.equals(rowTopic)) {
            if (otherTopics.size() < NAMED_AT_MOST) {
                otherTopics.add(String.valueOf(rowTopic));
            }
        } else if (topicPartitions.size() < NAMED_AT_MOST) {
            topicPartitions.add(partition);
        }
        if (!topic.equals(rowTopic) || !audited.contains(partition) || offset < 0) {
            otherRows++;
            return;
        }
        PartitionRows p = partitions.computeIfAbsent(partition, k -> new PartitionRows());
        p.rows++;
        if (!p.offsets.add(offset)) {
            p.repeated.add(offset);
        }
        p.lowest = Math.min(p.lowest, offset);
        p.highest = Math.max(p.highest, offset);
    }
}
