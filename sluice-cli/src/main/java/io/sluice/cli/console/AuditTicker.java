package io.sluice.cli.console;

import io.sluice.audit.AuditProgress;
import java.time.Duration;
import java.util.Locale;

/**
 * Shows how far an audit has read, at most once per interval, so that an audit of tens of seconds is seen to move: on
 * the status line of a terminal, as a line on standard error elsewhere. An audit shorter than the interval says
 * nothing. The quick start's and {@code sluice verify}'s (which said nothing until its report, for minutes on a large
 * archive).
 *
 * <p>Threading: the audit's thread only (see {@link AuditProgress}).
 */
public final class AuditTicker implements AuditProgress {

    private final Console console;
    private final String prefix;
    private final long everyNanos;
    private long nextAt;

    /** @param prefix what comes before "12 files and 3,400 records read", e.g. "checking: " */
    public AuditTicker(Console console, String prefix, Duration every) {
        this.console = console;
        this.prefix = prefix;
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
        String line = String.format(Locale.ROOT, "%s%,d files and %,d records read", prefix, files, rows);
        if (console.terminal()) {
            console.status(line);
        } else {
            console.say(line);
        }
    }

    /** The audit is over: its status line goes. */
    public void finish() {
        console.clearStatus();
    }
}
