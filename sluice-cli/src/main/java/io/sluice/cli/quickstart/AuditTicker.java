package io.sluice.cli.quickstart;

import io.sluice.audit.AuditProgress;
import io.sluice.cli.console.Console;
import java.time.Duration;
import java.util.Locale;

/**
 * Shows how far the quick start's audit has read, at most once per interval, so that an audit of tens of seconds is
 * seen to move: on the status line of a terminal, as a line on standard error elsewhere.
 *
 * <p>Threading: the audit's thread only (see {@link AuditProgress}).
 */
final class AuditTicker implements AuditProgress {

    private final Console console;
    private final long everyNanos;
    private long nextAt;

    AuditTicker(Console console, Duration every) {
        this.console = console;
        this.everyNanos = every.toNanos();
        this.nextAt = System.nanoTime() + everyNanos;
    }

    @Override
    public void filesRead(long files, long rows) {
        long now = System.nanoTime();
        if (now - nextAt < 0) {
            return;
        }
        nextAt = now + everyNanos;
        String line = String.format(Locale.ROOT, "      checking: %,d files and %,d records read", files, rows);
        if (console.terminal()) {
            console.status(line);
        } else {
            console.say(line);
        }
    }

    /** The audit is over: its status line goes. */
    void finish() {
        console.clearStatus();
    }
}
