package io.sluice.cli;

import io.sluice.cli.config.Variables;
import io.sluice.cli.console.Console;

/**
 * What commands share: the console and the variables of pipeline files. Commands that want it take it in their
 * constructor (the command factory passes it).
 *
 * <p>Immutable.
 */
public record CliContext(Console console, Variables variables) {
}
