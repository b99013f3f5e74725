package io.sluice.cli.lag;

import java.time.Instant;
import java.util.Map;
import java.util.OptionalDouble;
import org.apache.kafka.common.TopicPartition;

/**
 * The cluster's state for a group at one moment: each partition's offsets, the oldest unconsumed record's time and
 * the log's size; the topics' retention; and the running instances' completed-records count, if asked for.
 *
 * @param unknown          the partitions whose offsets could not be read, with why (not in {@code partitions})
 * @param completedRecords the sum of the instances' completed-records counters, or empty
 */
record LagSnapshot(Instant at, Map<TopicPartition, Reading> partitions, Map<TopicPartition, String> unknown,
        Map<String, Retention> retention, OptionalDouble completedRecords) {

    /**
     * One partition.
     *
     * @param logStart        the first offset still in the log
     * @param end             the last stable offset (read_committed), where a consumer's lag ends
     * @param committed       the group's committed offset, or -1 when it has none
     * @param oldestTimestamp the timestamp of the first record at or after the committed offset, or -1 when there is
     *                        no lag or it could not be read
     * @param sizeBytes       the log's size on the broker, or -1 when the brokers do not say
     * @param sampledRecordBytes the average size of a few records read at the committed offset, or -1
     */
    record Reading(long logStart, long end, long committed, long oldestTimestamp, long sizeBytes,
            double sampledRecordBytes) {

        /** Where the group reads next: its commit, or the log start when it has none or the commit was deleted. */
        long next() {
            return Math.max(committed, logStart);
        }

        long lag() {
            return Math.max(0, end - next());
        }

        /** Records deleted before the group processed them. */
        long lost() {
            return committed >= 0 && committed < logStart ? logStart - committed : 0;
        }

        /** Bytes a record takes, from the log's size or from sampled records; -1 when unknown. */
        double recordBytes() {
            if (sizeBytes >= 0 && end > logStart) {
                return (double) sizeBytes / (end - logStart);
            }
            return sampledRecordBytes;
        }
    }

    /**
     * A topic's retention.
     *
     * @param deletes whether the cleanup policy deletes old segments (not compaction only)
     * @param ms      retention.ms, -1 for unlimited
     * @param bytes   retention.bytes per partition, -1 for unlimited
     */
    record Retention(boolean deletes, long ms, long bytes) {
    }
}
