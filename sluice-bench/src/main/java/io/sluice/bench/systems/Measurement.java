package io.sluice.bench.systems;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * Counts handled records and times them from the first to the target count, so that group joins and JVM start-up,
 * which differ between systems, stay out of the figure. Archive systems end the clock later, when their output is
 * committed ({@link #result(long)}).
 *
 * <p>Threading: safe for concurrent use by handler threads.
 */
final class Measurement {

    private final long target;
    private final LongAdder handled = new LongAdder();
    private final AtomicLong first = new AtomicLong();
    private final AtomicLong last = new AtomicLong();
    private final LongAdder bytes = new LongAdder();
    /** The process's CPU time at the first record: the run's CPU cost is what the process spends from there. */
    private volatile long cpuAtFirst;
    /**
     * The process's CPU time when half the records were handled: the second half's cost leaves out most of the JIT
     * compiler's work, which a run of a few seconds counts but a process that runs for days does not.
     */
    private final AtomicLong cpuAtHalf = new AtomicLong();

    Measurement(long target) {
        this.target = target;
    }

    /** Records one handled record of {@code bytes} value bytes. */
    void handled(int bytes) {
        long now = System.nanoTime();
        if (first.compareAndSet(0, now)) {
            cpuAtFirst = processCpuNanos();
        }
        this.bytes.add(bytes);
        handled.increment();
        long count = handled.sum();
        if (count >= target / 2 && cpuAtHalf.get() == 0) {
            cpuAtHalf.compareAndSet(0, processCpuNanos());
        }
        if (count >= target) {
            last.compareAndSet(0, now);
        }
    }

    boolean done() {
        return last.get() != 0;
    }

    void awaitDone(long timeoutMillis) throws InterruptedException {
        awaitDone(Duration.ofMillis(timeoutMillis), Optional::empty);
    }

    /** Waits for the target count; {@code failure} says why the system stopped, if it did, and ends the wait. */
    void awaitDone(Duration timeout, Supplier<Optional<String>> failure) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!done()) {
            Optional<String> failed = failure.get();
            if (failed.isPresent()) {
                throw new IllegalStateException("the system failed after " + handled.sum() + " of " + target
                        + " records: " + failed.get());
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("handled " + handled.sum() + " of " + target + " records in "
                        + timeout);
            }
            Thread.sleep(5);
        }
    }

    /** The figures of a run from the first record to the target count. */
    Map<String, Object> result() {
        return result(last.get());
    }

    /** The figures of a run from the first record to {@code endNanos} (for example when the output is committed). */
    Map<String, Object> result(long endNanos) {
        double seconds = (endNanos - first.get()) / 1e9;
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("records", target);
        r.put("seconds", seconds);
        r.put("records_per_sec", target / seconds);
        r.put("mb_per_sec", bytes.sum() / seconds / 1e6);
        // every thread of the system's JVM (consumer, workers, GC, JIT): what a record costs on any number of cores
        long cpuNow = processCpuNanos();
        r.put("cpu_us_per_record", (cpuNow - cpuAtFirst) / 1e3 / target);
        r.put("second_half_cpu_us_per_record", (cpuNow - cpuAtHalf.get()) / 1e3 / (target - target / 2));
        return r;
    }

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    long target() {
        return target;
    }

    long count() {
        return handled.sum();
    }
}
