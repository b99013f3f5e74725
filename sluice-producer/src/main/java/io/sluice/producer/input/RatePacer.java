package io.sluice.producer.input;

/**
 * At most a given number of records per second, evenly spaced: {@link #acquire} sleeps until the next record's turn.
 * A pause (a slow broker) does not build up credit for a burst later, beyond one second's worth.
 *
 * <p>Threading: one thread.
 */
public final class RatePacer {

    private final long intervalNanos;
    private long next = System.nanoTime();

    /** @param perSecond records per second; 0 or less for no limit */
    public RatePacer(double perSecond) {
        this.intervalNanos = perSecond <= 0 ? 0 : Math.max(1, (long) (1_000_000_000L / perSecond));
    }

    public void acquire() throws InterruptedException {
        if (intervalNanos == 0) {
            return;
        }
        long now = System.nanoTime();
        next = Math.max(next, now - 1_000_000_000L) + intervalNanos;
        long wait = next - now;
        if (wait > 0) {
            Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
        }
    }
}
