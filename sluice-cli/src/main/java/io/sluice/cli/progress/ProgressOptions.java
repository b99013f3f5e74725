package io.sluice.cli.progress;

import io.sluice.cli.config.OptionValues;
import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * The progress flag of every command that runs an engine: a picocli mixin.
 *
 * <p>Threading: filled by picocli, then read by the command's thread.
 */
public final class ProgressOptions {

    @Option(names = "--progress-every", paramLabel = "DURATION", defaultValue = "30s",
            converter = OptionValues.DurationValue.class,
            description = "Without a terminal, log a progress line this often (default ${DEFAULT-VALUE}); on a "
                    + "terminal one live line shows progress.")
    Duration every;

    /** How often a progress line is logged without a terminal. */
    public Duration every() {
        return every;
    }
}
