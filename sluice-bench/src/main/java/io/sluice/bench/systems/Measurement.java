package io.sluice.bench.systems;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
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
    /** Each handler thread's counts: written by that thread alone, summed by whoever asks. */
    private final List<Counts> counts = new CopyOnWriteArrayList<>();
    private final ThreadLocal<Counts> mine = ThreadLocal.withInitial(() -> {
        Counts c = new Counts();
        counts.add(c);
        return c;
    });
    private final AtomicLong first = new AtomicLong();
    private final AtomicLong last = new AtomicLong();
    /** The process's CPU time at the first record: the run's CPU cost is what the process spends from there. */
    private volatile long cpuAtFirst;
    /**
     * The JIT compiler's threads, watched from the first record. A run of a few seconds spends a large share of its CPU compiling
     * (the engine benchmark's sluice: its compiler threads took 3.5 s of CPU in a 4 s run, the plain consumer's far
     * less, having less code), which a process that runs for days does not: the figure without it is the work's own.
     */
    private volatile CompilerThreads jit;

    Measurement(long target) {
        this.target = target;
    }

    /**
     * Records one handled record of {@code bytes} value bytes. Only counts: whether the target is reached is asked by
     * {@link #done}, once per poll or every millisecond, not per record (a sum of the counter per record was 14.5% of
     * the engine benchmark's samples, the measuring costing the measured), and each thread counts in a place of its
     * own (a shared {@code LongAdder}, with more handler threads than cores, was 21% of them then).
     */
    void handled(int bytes) {
        if (first.get() == 0) {
            long now = System.nanoTime();
            if (first.compareAndSet(0, now)) {
                jit = CompilerThreads.watch();
                cpuAtFirst = processCpuNanos();
            }
        }
        Counts c = mine.get();
        c.records.lazySet(c.records.get() + 1); // this thread is the only writer
        c.bytes.lazySet(c.bytes.get() + bytes);
    }

    /** One handler thread's counts. */
    private static final class Counts {
        final AtomicLong records = new AtomicLong();
        final AtomicLong bytes = new AtomicLong();
    }

    private long records() {
        long sum = 0;
        for (Counts c : counts) {
            sum += c.records.get();
        }
        return sum;
    }

    private long bytes() {
        long sum = 0;
        for (Counts c : counts) {
            sum += c.bytes.get();
        }
        return sum;
    }

    /** Whether the target count was handled; the first call that sees it takes the time. */
    boolean done() {
        if (last.get() != 0) {
            return true;
        }
        if (records() >= target) {
            last.compareAndSet(0, System.nanoTime());
            return true;
        }
        return false;
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
                throw new IllegalStateException("the system failed after " + records() + " of " + target
                        + " records: " + failed.get());
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("handled " + records() + " of " + target + " records in "
                        + timeout);
            }
            Thread.sleep(1); // done() takes the target's time here: a millisecond late at most, in a run of seconds
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
        r.put("mb_per_sec", bytes() / seconds / 1e6);
        // every thread of the system's JVM (consumer, workers, GC, JIT): what a record costs on any number of cores
        long cpuNow = processCpuNanos();
        long compiling = jit == null ? 0 : jit.cpuNanos();
        r.put("cpu_us_per_record", (cpuNow - cpuAtFirst) / 1e3 / target);
        // an estimate: the compiler threads sampled every 100 ms (CompilerThreads)
        r.put("cpu_us_per_record_without_jit", (cpuNow - cpuAtFirst - compiling) / 1e3 / target);
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
        return records();
    }
}
