package io.sluice.bench;

import io.sluice.core.EngineConfig;
import io.sluice.storage.format.FileFormat;
import io.sluice.storage.layout.Layout;
import io.sluice.storage.rolling.RollingPolicy;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.ConsumerConfig;

/**
 * The work of an archive scenario, the same for every system that archives: where records go ({@link #layout()}),
 * how a file is written ({@link #format()}: format and codec), when files roll, and how often progress is committed.
 * Another format is another {@code formats} supplier; everything else, Kafka Connect's task included, follows.
 *
 * @param rolling        when files are sealed; {@link #SEALED_AT_EVERY_COMMIT} makes both systems seal all open
 *                       files at each commit, so the tail of the topic is visible one commit after it arrives
 * @param commitInterval Sluice's commit interval, and Kafka Connect's {@code offset.flush.interval.ms}
 * @param memoryBudgetBytes Sluice's memory budget, from which it derives its consumer's fetch sizes; the other
 *                       systems' consumers get the same fetch sizes ({@link #fetchSizes()})
 * @param timeSpread     null: the records' times rise with the topic (7 ms a record, about four hours in all), so
 *                       each partition has a few folders open at a time; else each record's time is drawn at random
 *                       from that span, as the quick start's clickstream spreads over 48 hours, and every partition
 *                       writes to all its folders at once
 * @param lateFraction   with a {@code timeSpread}, the share of records whose time is drawn from that span before the
 *                       others' (late), the others' times rising as without one; 0: every record's time is drawn
 * @param formatKeys     the same format as a pipeline file's {@code sink} keys ({@code format}, {@code codec}), for
 *                       the system that runs the {@code sluice} command; {@code schema} stands for
 *                       {@link BenchData#LOG_SCHEMA}, which that system writes to a file
 */
public record ArchiveWork(String pathTemplate, String timeField, Supplier<FileFormat> formats, RollingPolicy rolling,
        Duration commitInterval, long memoryBudgetBytes, Duration timeSpread, double lateFraction,
        Map<String, String> formatKeys) {

    /** Files of every partition roll at each commit: a file's age is checked at commits, and a millisecond is over. */
    static final RollingPolicy SEALED_AT_EVERY_COMMIT = new RollingPolicy(128L * 1024 * 1024, 10_000_000,
            Duration.ofMillis(1), 32);

    /** By hour (of the value's {@code ts}, UTC) and the value's category, as the issue and seed 004 lay logs out. */
    static ArchiveWork hourAndCategory(Supplier<FileFormat> formats, Map<String, String> formatKeys,
            Duration commitInterval) {
        return new ArchiveWork("{topic}/dt={ts:yyyy-MM-dd}/hr={ts:HH}/category={value.category}/", "ts", formats,
                SEALED_AT_EVERY_COMMIT, commitInterval, 256L * 1024 * 1024, null, 0, Map.copyOf(formatKeys));
    }

    /**
     * By hour only, the files rolled by the default policy, with {@code lateFraction} of the records late by up to
     * {@code span} (issue 17's late data: does a late record cut the current hour's file?).
     */
    static ArchiveWork hourly(Supplier<FileFormat> formats, Map<String, String> formatKeys, Duration commitInterval,
            Duration span, double lateFraction) {
        return new ArchiveWork("{topic}/dt={ts:yyyy-MM-dd}/hr={ts:HH}/", "ts", formats, RollingPolicy.defaults(),
                commitInterval, 256L * 1024 * 1024, span, lateFraction, Map.copyOf(formatKeys));
    }

    /** The same work on records whose times are spread at random over {@code span}. */
    ArchiveWork spreadOver(Duration span) {
        return new ArchiveWork(pathTemplate, timeField, formats, rolling, commitInterval, memoryBudgetBytes, span, 0,
                formatKeys);
    }

    public Layout layout() {
        return new Layout(pathTemplate, timeField, ZoneOffset.UTC, null);
    }

    public FileFormat format() {
        return formats.get();
    }

    /** {@code max.partition.fetch.bytes} and {@code fetch.max.bytes} as Sluice sets them for its budget. */
    public Map<String, Object> fetchSizes() {
        return EngineConfig.fetchSizes(memoryBudgetBytes);
    }
}
