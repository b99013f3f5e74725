package io.sluice.cli.reassign;

import io.sluice.cli.config.OptionValues;
import io.sluice.reassign.execute.ExecuteOptions;
import java.time.Duration;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * How a run moves: batch size, how often it reads progress, whether it also journals in the cluster's topic: a
 * picocli mixin of {@code execute} and
 * {@code resume}.
 *
 * <p>Threading: filled by picocli, then read by the command's thread.
 */
final class RunFlags {

    @Option(names = "--batch-size", paramLabel = "N", defaultValue = "10",
            description = "Partitions moved at once; the next batch starts when one is complete (default "
                    + "${DEFAULT-VALUE}; for resume, the run's, as journaled).")
    int batchSize;

    @Option(names = "--poll", paramLabel = "DURATION", defaultValue = "1s", converter = OptionValues.DurationValue.class,
            description = "How often the moves are checked (default ${DEFAULT-VALUE}).")
    Duration poll;

    @Option(names = "--progress-every", paramLabel = "DURATION", defaultValue = "30s",
            converter = OptionValues.DurationValue.class,
            description = "Without a terminal, a progress line this often (default ${DEFAULT-VALUE}); on a terminal "
                    + "one live line.")
    Duration progressEvery;

    @Option(names = "--journal-topic", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Also record each temporary config in the cluster's compacted topic "
                    + "sluice-reassign-journal (created on first use), so that `check` finds it from any machine "
                    + "even when the journal file is gone (default: on).")
    boolean journalTopic;

    /**
     * The run's options with these flags; a value out of range is a usage error (exit 2, in words), found before
     * anything is asked of the cluster.
     */
    ExecuteOptions options(CommandLine.Model.CommandSpec spec, long throttle, boolean retentionGuard, double allowance,
            double maxDiskUse) {
        return options(spec, throttle, retentionGuard, allowance, maxDiskUse, batchSize);
    }

    /** As above, with the batch size given (a resume's: the journaled one, unless --batch-size was given). */
    ExecuteOptions options(CommandLine.Model.CommandSpec spec, long throttle, boolean retentionGuard, double allowance,
            double maxDiskUse, int batchSize) {
        try {
            return new ExecuteOptions(throttle, batchSize, retentionGuard, allowance, maxDiskUse, poll);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
    }
}
