package io.sluice.cli.ops;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Shows a run's progress: on a terminal, one line redrawn in place every second; otherwise a log line every half
 * minute. Rates are taken over the last few seconds so the line does not jitter.
 *
 * <p>Threading: {@link #start} runs ticks on a daemon thread of its own; {@link #tick} and {@link #close} are
 * synchronized, so a last tick on close never interleaves with a scheduled one.
 */
public final class ProgressReporter implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ProgressReporter.class);
    private static final long WINDOW_NANOS = Duration.ofSeconds(5).toNanos();
    private static final String CLEAR_TO_END = "\u001b[K";

    private final Supplier<ProgressSample> source;
    private final PrintStream terminal;
    private final Consumer<String> log;
    private final Deque<ProgressSample> window = new ArrayDeque<>();
    private ScheduledExecutorService scheduler;
    private boolean drawn;

    private ProgressReporter(Supplier<ProgressSample> source, PrintStream terminal, Consumer<String> log) {
        this.source = source;
        this.terminal = terminal;
        this.log = log;
    }

    /** Redraws one line on {@code terminal}. */
    static ProgressReporter onTerminal(Supplier<ProgressSample> source, PrintStream terminal) {
        return new ProgressReporter(source, terminal, null);
    }

    /** Writes each reading as a line to {@code log}. */
    static ProgressReporter toLog(Supplier<ProgressSample> source, Consumer<String> log) {
        return new ProgressReporter(source, null, log);
    }

    /**
     * Starts reporting: a line on standard error every second when it is a terminal, else a log line every 30 s.
     */
    public static ProgressReporter start(Supplier<ProgressSample> source) {
        boolean interactive = Terminal.isInteractive();
        ProgressReporter reporter = interactive ? onTerminal(source, System.err)
                : toLog(source, line -> LOG.info("progress: {}", line));
        reporter.schedule(interactive ? Duration.ofSeconds(1) : Duration.ofSeconds(30));
        return reporter;
    }

    void schedule(Duration interval) {
        scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "sluice-progress");
            t.setDaemon(true);
            return t;
        });
        scheduler.scheduleAtFixedRate(this::tickQuietly, interval.toMillis(), interval.toMillis(),
                TimeUnit.MILLISECONDS);
    }

    private void tickQuietly() {
        try {
            tick();
        } catch (RuntimeException e) {
            LOG.warn("progress: {}", e.toString()); // a progress line is not worth stopping for
        }
    }

    /** Takes a reading and shows it. */
    synchronized void tick() {
        ProgressSample now = source.get();
        window.addLast(now);
        while (window.size() > 2 && now.nanos() - window.peekFirst().nanos() > WINDOW_NANOS) {
            window.removeFirst();
        }
        String line = ProgressLine.render(window.peekFirst(), now);
        if (terminal != null) {
            terminal.print("\r" + line + CLEAR_TO_END);
            terminal.flush();
            drawn = true;
        } else {
            log.accept(line);
        }
    }

    /** Stops reporting, showing a last reading; on a terminal the line is then ended. */
    @Override
    public synchronized void close() {
        if (scheduler != null) {
            scheduler.shutdownNow();
        }
        tick();
        if (terminal != null && drawn) {
            terminal.println();
            terminal.flush();
        }
    }
}
