package io.sluice.cli.console;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.Method;

/**
 * The command's output: results on standard output, messages and logs on standard error, and on a terminal one live
 * status line at the bottom of standard error. Whatever else is written clears the status line first and redraws it
 * after, so log lines and results never tangle with it.
 *
 * <p>Threading: safe for concurrent use; writes are serialized on this object.
 */
public final class Console {

    private static final String CLEAR_LINE = "\r\033[K";

    private final PrintStream out;
    private final PrintStream err;
    private final boolean terminal;
    private String status = "";

    public Console(PrintStream out, PrintStream err, boolean terminal) {
        this.out = out;
        this.err = err;
        this.terminal = terminal;
    }

    /** The process's own streams; a live status line only when they are a terminal. */
    public static Console system() {
        return new Console(System.out, System.err, isTerminal());
    }

    /** Whether this JVM talks to a terminal (and not to a pipe, a file or a dumb terminal). */
    static boolean isTerminal() {
        java.io.Console console = System.console();
        if (console == null || "dumb".equals(System.getenv("TERM"))) {
            return false;
        }
        try {
            // JDK 22+ returns a console for redirected streams too; isTerminal() tells them apart
            Method isTerminal = java.io.Console.class.getMethod("isTerminal");
            return (Boolean) isTerminal.invoke(console);
        } catch (ReflectiveOperationException e) {
            return true; // before JDK 22, a console exists only for a terminal
        }
    }

    public boolean terminal() {
        return terminal;
    }

    /** A line of results on standard output. */
    public synchronized void result(String line) {
        hideStatus();
        out.println(line);
        out.flush();
        showStatus();
    }

    /** A message for the user on standard error (not a log line: no time, no level). */
    public synchronized void say(String line) {
        hideStatus();
        err.println(line);
        err.flush();
        showStatus();
    }

    /** Replaces the live status line; does nothing off a terminal. */
    public synchronized void status(String line) {
        if (!terminal) {
            return;
        }
        status = line;
        err.print(CLEAR_LINE + line);
        err.flush();
    }

    /** Removes the status line for good (the run is over). */
    public synchronized void clearStatus() {
        hideStatus();
        status = "";
    }

    /** Where log lines go: standard error, around the status line. */
    public OutputStream logStream() {
        return new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) {
                synchronized (Console.this) {
                    hideStatus();
                    err.write(b, off, len);
                    err.flush();
                    if (len > 0 && b[off + len - 1] == '\n') {
                        showStatus();
                    }
                }
            }

            @Override
            public void flush() {
                err.flush();
            }
        };
    }

    private void hideStatus() {
        if (terminal && !status.isEmpty()) {
            err.print(CLEAR_LINE);
        }
    }

    private void showStatus() {
        if (terminal && !status.isEmpty()) {
            err.print(status);
            err.flush();
        }
    }

    /** Standard output, for results. */
    public PrintStream out() {
        return out;
    }

    /** Standard error as text, for messages that must reach the user even when logging is not set up. */
    public PrintStream err() {
        return err;
    }
}
