package io.sluice.cli;

import io.sluice.cli.config.Variables;
import io.sluice.cli.console.Console;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** Runs the command line in this JVM, as a user would type it, and keeps what it printed. */
public final class Cli {

    /** What one invocation did. */
    public record Result(int status, String out, String err) {
    }

    private Cli() {
    }

    public static Result run(Map<String, String> environment, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Console console = new Console(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), false);
        int status = Main.execute(args, console, Variables.of(environment));
        return new Result(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    public static Result run(String... args) {
        return run(Map.of(), args);
    }
}
