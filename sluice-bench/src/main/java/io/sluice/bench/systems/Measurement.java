package io.sluice.bench.systems;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts handled records and times them from the first to the target count, so that group joins and JVM start-up,
 * which differ between systems, stay out of the figure.
 *
 * <p>Threading: safe for concurrent use by handler threads.
 */
final class Measurement {

    private final long target;
    private final LongAdder handled = new LongAdder();
    private final AtomicLong first = new AtomicLong();
    private final AtomicLong last = new AtomicLong();
    private final LongAdder checksum = new LongAdder();

    Measurement(long target) {
        this.target = target;
    }

    /** Records one handled record of {@code bytes} value bytes. */
    void handled(int bytes) {
        long now = System.nanoTime();
        first.compareAndSet(0, now);
        checksum.add(bytes);
        handled.increment();
        if (handled.sum() >= target) {
            last.compareAndSet(0, now);
        }
    }

    boolean done() {
        return last.get() != 0;
    }

    void awaitDone(long timeoutMillis) throws InterruptedException {
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000;
        while (!done()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("handled " + handled.sum() + " of " + target + " records in "
                        + timeoutMillis + " ms");
            }
            Thread.sleep(5);
        }
    }

    double seconds() {
        return (last.get() - first.get()) / 1e9;
    }

    long target() {
        return target;
    }

    long checksum() {
        return checksum.sum();
    }
}
