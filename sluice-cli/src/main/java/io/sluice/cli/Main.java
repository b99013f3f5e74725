package io.sluice.cli;

import io.sluice.cli.config.Variables;
import io.sluice.cli.console.Console;

/**
 * Entry point of the {@code sluice} command.
 *
 * <p>Threading: the main thread.
 */
public final class Main {

    private Main() {
    }

    public static void main(String[] args) {
        System.exit(execute(args, Console.system()));
    }

    /** Runs the command line and returns its exit status; for tests, with a console of their own. */
    public static int execute(String[] args, Console console) {
        return execute(args, console, Variables.environment());
    }

    /** As {@link #execute(String[], Console)}, with the variables of pipeline files given. */
    public static int execute(String[] args, Console console, Variables variables) {
        CliContext context = new CliContext(console, variables);
        return SluiceCommand.commandLine(context, args).execute(args);
    }
}
