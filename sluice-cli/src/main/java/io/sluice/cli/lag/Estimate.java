package io.sluice.cli.lag;

import io.sluice.cli.console.Units;
import java.time.Duration;

/**
 * A time estimate that may also be "never", "unknown" or not apply at all.
 *
 * @param value the estimate when {@link Kind#KNOWN}, else null
 */
public record Estimate(Kind kind, Duration value) {

    public enum Kind { KNOWN, NEVER, UNKNOWN, NONE }

    static final Estimate NEVER = new Estimate(Kind.NEVER, null);
    static final Estimate UNKNOWN = new Estimate(Kind.UNKNOWN, null);
    static final Estimate NONE = new Estimate(Kind.NONE, null);

    static Estimate seconds(double seconds) {
        return new Estimate(Kind.KNOWN, Duration.ofMillis((long) Math.max(0, Math.min(seconds * 1000, 1e15))));
    }

    public boolean known() {
        return kind == Kind.KNOWN;
    }

    /** The sooner of two estimates; a known one beats "never", "unknown" and "none". */
    static Estimate sooner(Estimate a, Estimate b) {
        if (a.known() && b.known()) {
            return a.value.compareTo(b.value) <= 0 ? a : b;
        }
        if (a.known() || b.known()) {
            return a.known() ? a : b;
        }
        return a.kind == Kind.UNKNOWN || b.kind == Kind.UNKNOWN ? UNKNOWN : a.kind == Kind.NEVER ? a : b;
    }

    @Override
    public String toString() {
        return switch (kind) {
            case KNOWN -> value.isZero() ? "now" : Units.duration(value);
            case NEVER -> "never";
            case UNKNOWN -> "?";
            case NONE -> "-";
        };
    }
}
