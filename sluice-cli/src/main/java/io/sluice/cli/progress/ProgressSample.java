package io.sluice.cli.progress;

import io.sluice.core.Engine;
import io.sluice.core.EngineStats;
import io.sluice.core.PartitionStats;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * One reading of a run's progress.
 *
 * @param nanos   when, on {@link System#nanoTime()}'s clock
 * @param records records done so far (written, or dead-lettered or skipped)
 * @param bytes   bytes (keys, values, headers) of those records, or -1 when the run does not count them
 * @param lag     records between the committable offsets and the log ends, or -1 when unknown
 * @param files   files committed so far, or -1 when the run has no file sink
 */
public record ProgressSample(long nanos, long records, long bytes, long lag, long files) {

    /** Reads {@code engine}'s counters now; {@code files} counts committed files, or is null without a sink. */
    public static ProgressSample of(Engine engine, LongSupplier files) {
        EngineStats stats = engine.stats();
        List<PartitionStats> partitions = engine.partitions();
        long lag = partitions.isEmpty() ? -1 : 0;
        for (PartitionStats p : partitions) {
            if (p.lag() < 0) {
                lag = -1;
                break;
            }
            lag += p.lag();
        }
        // the engine counts the bytes of records read, not done; records read but not done yet are a bounded few (the
        // memory budget), so the done ones' bytes are their count at the average size read
        long bytes = stats.consumed() == 0 ? 0
                : Math.round((double) stats.consumedBytes() * stats.completed() / stats.consumed());
        return new ProgressSample(System.nanoTime(), stats.completed(), bytes, lag,
                files == null ? -1 : files.getAsLong());
    }
}
