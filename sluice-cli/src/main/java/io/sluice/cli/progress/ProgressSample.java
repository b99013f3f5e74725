package io.sluice.cli.progress;

import io.sluice.core.Engine;
import io.sluice.core.EngineStats;
import io.sluice.core.PartitionStats;
import org.apache.kafka.common.TopicPartition;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;

/**
 * One reading of a run's progress.
 *
 * @param nanos       when, on {@link System#nanoTime()}'s clock
 * @param records     records done so far (written, or dead-lettered or skipped)
 * @param bytes       bytes (keys, values, headers) of those records, or -1 when the run does not count them
 * @param lag         records between the committable offsets and the log ends (the consumed lag), or -1 when unknown
 * @param durableLag  records between the last commits and the log ends, or -1 when unknown: the records not yet
 *                    durable (an archive's not yet in published files). At least {@code lag} when both are known
 * @param files       files committed so far, or -1 when the run has no file sink
 * @param untilCommit how long until the sink's held records are expected to commit (an archive's oldest open file
 *                    reaching its maximum age), or null when unknown or nothing is held
 * @param unreachable how long the run has had no connection to its source cluster, or null while it has one (then
 *                    {@code lag} is as of the last time the brokers answered)
 * @param targetUnreachable how long records have waited for the cluster the run writes to with no answer from it, or
 *                    null while it answers (or where that is not watched)
 * @param stopped     partitions stopped at a gap (records they were to read are gone), which the lags leave out: they
 *                    go no further, and the line names them
 * @param held        partitions this run holds (its group may share the topics' among several members), or -1
 * @param subscribed  partitions of the topics the run reads, or -1 when unknown: beyond {@code held}, the lags say
 *                    nothing of them
 * @param busy        what the sink is busy with now that holds records back, in words (an archive's roll sealing
 *                    files), or null
 */
public record ProgressSample(long nanos, long records, long bytes, long lag, long durableLag, long files,
        Duration untilCommit, Duration unreachable, Duration targetUnreachable, int stopped, int held,
        int subscribed, String busy) {

    /** A reading with nothing the sink is busy with. */
    public ProgressSample(long nanos, long records, long bytes, long lag, long durableLag, long files,
            Duration untilCommit, Duration unreachable, Duration targetUnreachable, int stopped, int held,
            int subscribed) {
        this(nanos, records, bytes, lag, durableLag, files, untilCommit, unreachable, targetUnreachable, stopped, held,
                subscribed, null);
    }

    /** This reading, with what the sink is busy with ({@link #busy}), if anything. */
    public ProgressSample withBusy(Optional<String> what) {
        return new ProgressSample(nanos, records, bytes, lag, durableLag, files, untilCommit, unreachable,
                targetUnreachable, stopped, held, subscribed, what.orElse(null));
    }

    /** A reading that does not say how many of the topics' partitions the run holds. */
    public ProgressSample(long nanos, long records, long bytes, long lag, long durableLag, long files,
            Duration untilCommit, Duration unreachable, Duration targetUnreachable, int stopped) {
        this(nanos, records, bytes, lag, durableLag, files, untilCommit, unreachable, targetUnreachable, stopped, -1,
                -1);
    }

    /** A reading with no partition stopped at a gap. */
    public ProgressSample(long nanos, long records, long bytes, long lag, long durableLag, long files,
            Duration untilCommit, Duration unreachable, Duration targetUnreachable) {
        this(nanos, records, bytes, lag, durableLag, files, untilCommit, unreachable, targetUnreachable, 0);
    }

    /** A reading of a run whose target answers (or where that is not known). */
    public ProgressSample(long nanos, long records, long bytes, long lag, long durableLag, long files,
            Duration untilCommit, Duration unreachable) {
        this(nanos, records, bytes, lag, durableLag, files, untilCommit, unreachable, null);
    }

    /** A reading of a run whose source answers (or where that is not known). */
    public ProgressSample(long nanos, long records, long bytes, long lag, long durableLag, long files,
            Duration untilCommit) {
        this(nanos, records, bytes, lag, durableLag, files, untilCommit, null);
    }

    /** A reading of a run whose output is durable as soon as it is consumed (or where the difference is not known). */
    public ProgressSample(long nanos, long records, long bytes, long lag, long files) {
        this(nanos, records, bytes, lag, lag, files, null);
    }

    /** Reads {@code engine}'s counters now; {@code files} counts committed files, or is null without a sink. */
    public static ProgressSample of(Engine engine, LongSupplier files) {
        return of(engine, files, Optional::empty);
    }

    /**
     * As {@link #of(Engine, LongSupplier)}, with {@code untilCommit} saying how long until the records the sink holds
     * are expected to commit (empty when unknown).
     */
    public static ProgressSample of(Engine engine, LongSupplier files, Supplier<Optional<Duration>> untilCommit) {
        return of(engine, files, untilCommit, Optional::empty);
    }

    /**
     * As {@link #of(Engine, LongSupplier, Supplier)}, with {@code targetUnreachable} saying how long records have waited
     * for the cluster the run writes to with no answer (empty while it answers).
     */
    public static ProgressSample of(Engine engine, LongSupplier files, Supplier<Optional<Duration>> untilCommit,
            Supplier<Optional<Duration>> targetUnreachable) {
        EngineStats stats = engine.stats();
        Set<TopicPartition> stopped = engine.partitionsStoppedAtGap().keySet();
        List<PartitionStats> partitions = engine.partitions().stream().filter(p -> !stopped.contains(p.partition()))
                .toList();
        // the engine counts the bytes of records read, not done; records read but not done yet are a bounded few (the
        // memory budget), so the done ones' bytes are their count at the average size read
        long bytes = stats.consumed() == 0 ? 0
                : Math.round((double) stats.consumedBytes() * stats.completed() / stats.consumed());
        return new ProgressSample(System.nanoTime(), stats.completed(), bytes, total(partitions, PartitionStats::lag),
                total(partitions, PartitionStats::durableLag), files == null ? -1 : files.getAsLong(),
                untilCommit.get().orElse(null), engine.sourceUnreachable().orElse(null),
                targetUnreachable.get().orElse(null), stopped.size(), engine.partitions().size(),
                engine.subscribedPartitions().orElse(-1));
    }

    /** The sum over the partitions, or -1 when there is none or one is unknown. */
    private static long total(List<PartitionStats> partitions, ToLongFunction<PartitionStats> lag) {
        long total = partitions.isEmpty() ? -1 : 0;
        for (PartitionStats p : partitions) {
            long one = lag.applyAsLong(p);
            if (one < 0) {
                return -1;
            }
            total += one;
        }
        return total;
    }
}
