package io.sluice.cli.progress;

import io.sluice.cli.console.Console;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Shows a run's progress as one {@link ProgressLine}: on a terminal, the console's live status line, redrawn every
 * second (log lines print above it); otherwise a log line every {@code logEvery}, its figures also as key-value pairs
 * for JSON logs. On a terminal, rates are over the last five seconds so the line does not jitter; in the log, over the
 * time since the previous line.
 *
 * <p>Threading: one thread (the run's loop) calls {@link #update}; it decides from the readings' own times when a line
 * is due, so the caller may read as often as it likes.
 */
public final class ProgressReporter {

    private static final Logger LOG = LoggerFactory.getLogger("sluice.progress");
    private static final long TERMINAL_EVERY = Duration.ofSeconds(1).toNanos();
    private static final long WINDOW = Duration.ofSeconds(5).toNanos();

    private final Console console;
    private final String label;
    private final long every;
    private final Deque<ProgressSample> window = new ArrayDeque<>();
    private long shownAt;

    /** @param label what is progressing, e.g. "archiving" */
    public ProgressReporter(Console console, String label, Duration logEvery) {
        this.console = console;
        this.label = label;
        this.every = console.terminal() ? TERMINAL_EVERY : logEvery.toNanos();
    }

    /** Takes {@code now} as the latest reading and shows a line when one is due; the first reading is the baseline. */
    public void update(ProgressSample now) {
        update(now, "");
    }

    /**
     * As {@link #update(ProgressSample)}, with what else the run has to say at the end of the line ({@code detail},
     * e.g. a merge's late records and lag per input; empty for nothing).
     */
    public void update(ProgressSample now, String detail) {
        if (window.isEmpty()) {
            window.add(now);
            shownAt = now.nanos();
            return;
        }
        if (!due(now)) {
            return;
        }
        window.addLast(now);
        // on a terminal, the last five seconds; in the log, since the line before (as docs/operations.md says)
        long span = console.terminal() ? WINDOW : 0;
        while (window.size() > 2 && now.nanos() - window.peekFirst().nanos() > span) {
            window.removeFirst();
        }
        ProgressSample from = window.peekFirst();
        double seconds = (now.nanos() - from.nanos()) / 1e9;
        show(now, ProgressLine.render(from, now) + (detail.isEmpty() ? "" : " · " + detail),
                Math.round((now.records() - from.records()) / seconds),
                Math.round(Math.max(0, now.bytes() - from.bytes()) / seconds));
    }

    /**
     * Takes {@code now} as a reading while the run stops and shows {@link ProgressLine#renderStopping} when a line is
     * due; {@code what} says what the stop is doing.
     */
    public void stopping(ProgressSample now, String what) {
        if (!window.isEmpty() && !due(now)) {
            return;
        }
        shownAt = now.nanos();
        show(now, ProgressLine.renderStopping(now, what), 0, 0);
    }

    private boolean due(ProgressSample now) {
        if (now.nanos() - shownAt < every) {
            return false;
        }
        shownAt = now.nanos();
        return true;
    }

    private void show(ProgressSample now, String figures, long recordsPerSecond, long bytesPerSecond) {
        String line = label + ": " + figures;
        if (console.terminal()) {
            console.status(line);
            return;
        }
        LOG.atInfo().setMessage(line)
                .addKeyValue("records", now.records())
                .addKeyValue("records_per_second", recordsPerSecond)
                .addKeyValue("bytes_per_second", bytesPerSecond)
                .addKeyValue("lag", now.lag())
                .addKeyValue("durable_lag", now.durableLag())
                .addKeyValue("files_committed", now.files())
                .addKeyValue("partitions_held", now.held())
                .addKeyValue("partitions", now.subscribed())
                .addKeyValue("source_unanswered_seconds", now.unreachable() == null ? 0
                        : now.unreachable().toSeconds())
                .log();
    }

    /** The run is over: the status line goes away (the caller reports the totals). */
    public void finish() {
        console.clearStatus();
    }
}
