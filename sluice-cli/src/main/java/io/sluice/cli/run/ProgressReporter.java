package io.sluice.cli.run;

import io.sluice.cli.config.Sizes;
import io.sluice.cli.console.Console;
import java.time.Duration;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Shows a running pipeline's progress: on a terminal, one live status line refreshed every second; otherwise a log
 * line every {@code logEvery}, with the figures also as key-value pairs for JSON logs. Rates are over the time since
 * the previous report.
 *
 * <p>Threading: one thread (the run's main loop).
 */
public final class ProgressReporter {

    private static final Logger LOG = LoggerFactory.getLogger("sluice.progress");
    private static final long TERMINAL_EVERY = Duration.ofSeconds(1).toNanos();

    private final Console console;
    private final String label;
    private final long every;
    private Progress previous;

    /** @param label what is progressing, e.g. "archiving" */
    public ProgressReporter(Console console, String label, Duration logEvery) {
        this.console = console;
        this.label = label;
        this.every = console.terminal() ? TERMINAL_EVERY : logEvery.toNanos();
    }

    public void start(Progress first) {
        previous = first;
    }

    /** Reports if a report is due. */
    public void update(Progress now) {
        if (now.nanos() - previous.nanos() < every) {
            return;
        }
        double seconds = (now.nanos() - previous.nanos()) / 1e9;
        double recordsPerSecond = (now.records() - previous.records()) / seconds;
        double bytesPerSecond = (now.bytes() - previous.bytes()) / seconds;
        String line = String.format(Locale.ROOT, "%s: %,d records · %,.0f rec/s · %s/s · lag %s · %,d files committed",
                label, now.records(), recordsPerSecond, Sizes.human(bytesPerSecond),
                now.lag() < 0 ? "?" : String.format(Locale.ROOT, "%,d", now.lag()), now.files());
        if (console.terminal()) {
            console.status(line);
        } else {
            LOG.atInfo().setMessage(line)
                    .addKeyValue("records", now.records())
                    .addKeyValue("records_per_second", Math.round(recordsPerSecond))
                    .addKeyValue("bytes_per_second", Math.round(bytesPerSecond))
                    .addKeyValue("lag", now.lag())
                    .addKeyValue("files_committed", now.files())
                    .log();
        }
        previous = now;
    }

    /** The run is over: the status line goes away (the caller reports the totals). */
    public void finish() {
        console.clearStatus();
    }
}
