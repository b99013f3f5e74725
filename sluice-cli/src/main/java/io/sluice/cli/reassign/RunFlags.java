package io.sluice.cli.reassign;

import io.sluice.cli.config.OptionValues;
import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * How a run moves: batch size and how often it reads progress: a picocli mixin of {@code execute} and
 * {@code resume}.
 *
 * <p>Threading: filled by picocli, then read by the command's thread.
 */
final class RunFlags {

    @Option(names = "--batch-size", paramLabel = "N", defaultValue = "10",
            description = "Partitions moved at once; the next batch starts when one is complete (default "
                    + "${DEFAULT-VALUE}).")
    int batchSize;

    @Option(names = "--poll", paramLabel = "DURATION", defaultValue = "1s", converter = OptionValues.DurationValue.class,
            description = "How often the moves are checked (default ${DEFAULT-VALUE}).")
    Duration poll;

    @Option(names = "--progress-every", paramLabel = "DURATION", defaultValue = "30s",
            converter = OptionValues.DurationValue.class,
            description = "Without a terminal, a progress line this often (default ${DEFAULT-VALUE}); on a terminal "
                    + "one live line.")
    Duration progressEvery;
}
