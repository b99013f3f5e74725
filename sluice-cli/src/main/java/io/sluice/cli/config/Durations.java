package io.sluice.cli.config;

import java.time.Duration;

/**
 * Durations as pipeline files write them: {@code 500ms}, {@code 10s}, {@code 1h30m}.
 *
 * <p>Stateless.
 */
public final class Durations {

    private Durations() {
    }

    public static String format(Duration d) {
        if (d.isZero()) {
            return "0s";
        }
        StringBuilder b = new StringBuilder();
        long days = d.toDays();
        append(b, days, "d");
        append(b, d.toHoursPart(), "h");
        append(b, d.toMinutesPart(), "m");
        append(b, d.toSecondsPart(), "s");
        append(b, d.toMillisPart(), "ms");
        return b.length() == 0 ? d.toString() : b.toString();
    }

    private static void append(StringBuilder b, long n, String unit) {
        if (n != 0) {
            b.append(n).append(unit);
        }
    }
}
