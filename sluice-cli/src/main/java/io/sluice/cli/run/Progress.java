package io.sluice.cli.run;

import io.sluice.core.Health;

/**
 * A running pipeline's counters at one moment.
 *
 * @param records    records written to the sink since start
 * @param bytes      their bytes as read from Kafka (keys and values)
 * @param files      files published (committed and visible)
 * @param lag        records between the committable offsets and the ends of the logs, or -1 while unknown
 * @param partitions partitions assigned to this instance
 * @param nanos      when, in {@link System#nanoTime()}
 */
public record Progress(long records, long bytes, long files, long lag, int partitions, Health health, long nanos) {
}
