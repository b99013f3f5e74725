package io.sluice.cli.ops;

import java.io.Console;

/**
 * Whether standard output is a person's terminal. On JDK 22 and newer {@link System#console()} exists even when the
 * output is redirected, so its {@code isTerminal()} (found reflectively, as this builds for JDK 17) decides.
 *
 * <p>Threading: stateless.
 */
final class Terminal {

    private Terminal() {
    }

    static boolean isInteractive() {
        Console console = System.console();
        if (console == null) {
            return false;
        }
        try {
            return (Boolean) Console.class.getMethod("isTerminal").invoke(console);
        } catch (ReflectiveOperationException e) {
            return true; // JDK 17 to 21: a console exists only on a terminal
        }
    }
}
