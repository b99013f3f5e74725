package io.sluice.cli;

import io.sluice.cli.config.Variables;
import io.sluice.cli.console.Console;
import io.sluice.cli.run.RunExtension;
import java.util.List;

/**
 * What commands share: the console, the variables of pipeline files, and {@code run}'s extensions. Commands that want
 * it take it in their constructor (the command factory passes it).
 *
 * <p>Immutable.
 */
public record CliContext(Console console, Variables variables, List<RunExtension> runExtensions) {

    public CliContext {
        runExtensions = List.copyOf(runExtensions);
    }
}
