package io.sluice.cli.lag;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;

/**
 * {@code sluice lag} as a library: takes snapshots of a group's offsets and the topics' logs, keeps those of the last
 * few minutes, and computes per partition and in total the lag, processing and produce rates over them, the time to
 * catch up and the time until retention deletes the oldest unconsumed record.
 *
 * <pre>{@code
 * try (LagReport report = new LagReport(inputs, Clock.systemUTC(), Duration.ofHours(1))) {
 *     report.sample();
 *     Thread.sleep(5_000);
 *     System.out.print(report.render(report.sample()));
 * }
 * }</pre>
 *
 * <p>Threading: one thread at a time.
 */
public final class LagReport implements AutoCloseable {

    /** Rates are taken over at most this much history, so that they follow changes. */
    private static final Duration RATE_WINDOW = Duration.ofMinutes(5);

    private final LagReader reader;
    private final Duration target;
    private final Deque<LagSnapshot> history = new ArrayDeque<>();

    /** @param target the catch-up time the verdict asks about, e.g. one hour */
    public LagReport(LagInputs inputs, Clock clock, Duration target) {
        if (target.isNegative() || target.isZero()) {
            throw new IllegalArgumentException("the catch-up target must be positive, not " + target);
        }
        this.reader = new LagReader(inputs, clock);
        this.target = target;
    }

    /** Reads the cluster now and returns the view over the samples so far. */
    public LagView sample() {
        LagSnapshot now = reader.read();
        history.addLast(now);
        while (history.size() > 2 && Duration.between(history.peekFirst().at(), now.at()).compareTo(RATE_WINDOW) > 0) {
            history.removeFirst();
        }
        return LagView.of(new ArrayList<>(history), target, reader.notes());
    }

    /** The view as text: the table, totals, the verdict line, warnings and notes. */
    public String render(LagView view) {
        return LagTable.render(view);
    }

    @Override
    public void close() {
        reader.close();
    }
}
