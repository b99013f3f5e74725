package io.sluice.core.internal.failure;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/** Exponential backoff with ±20% jitter, so records that failed together do not retry in lockstep. */
public final class Backoff {

    private final long initialNanos;
    private final long maxNanos;

    public Backoff(Duration initial, Duration max) {
        this.initialNanos = initial.toNanos();
        this.maxNanos = max.toNanos();
    }

    /** The wait before attempt {@code attempt + 1}, after {@code attempt} failures (1-based). */
    public long nanosAfter(int attempt) {
        double base = Math.min((double) maxNanos, initialNanos * Math.pow(2, attempt - 1));
        double jitter = 0.8 + 0.4 * ThreadLocalRandom.current().nextDouble();
        return (long) Math.min(maxNanos, base * jitter);
    }
}
