package io.sluice.core;

import org.apache.kafka.common.TopicPartition;

/**
 * One assigned partition as of the consumer thread's last look.
 *
 * @param committedOffset the last offset committed, or -1 before the first commit
 * @param watermark       the committable offset: every record below it is done
 * @param watermarkGap    records handed out beyond the watermark (pending or completed out of order)
 * @param lag             records between the watermark and the end of the log (the consumed lag), or -1 when the
 *                        consumer does not know the end yet
 * @param durableLag      records between the last commit (or, before the first, where this assignment started) and
 *                        the end of the log, or -1 when the end is not known yet: the records not yet durable. A
 *                        sink's commit is what makes its output true (an archive's files visible), so this lag, not
 *                        {@code lag}, says how far behind the output is; it can stay above 0 with {@code lag} at 0
 *                        while a sink holds records in open files
 * @param stuckMillis     how long the watermark has not moved although records are pending (0 when moving)
 */
public record PartitionStats(TopicPartition partition, long committedOffset, long watermark, long watermarkGap,
        long lag, long durableLag, long stuckMillis, boolean paused) {
}
