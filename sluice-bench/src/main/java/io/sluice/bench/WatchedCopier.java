package io.sluice.bench;

import io.sluice.bench.systems.CompilerThreads;
import io.sluice.local.process.ChildProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A copier in a JVM of its own (or MirrorMaker 2's), measured from the benchmark's JVM in the same way whatever it
 * runs: the time from its launch to the first record a read_committed reader of the target sees ({@link
 * TargetWatch}), the rate from that record to the last, and the copier's CPU time over the same span, read from the
 * operating system, so it counts every thread of the copier and nothing of the reader's. Then the copier is stopped
 * and the reader reads to the end, so that a record copied again after the last one showed counts as a duplicate.
 * The brokers' CPU over the same span is measured beside it ({@link #alsoMeasure}): a copier that makes the brokers
 * work harder (more requests, transactions, larger records) slows every copier on the same cores, and its own CPU
 * time does not show that. So is the share of the copier's JIT compiler threads ({@link CompilerThreads}): in a copy
 * of a few seconds they take a large part of the CPU, more for a copier with more code, which a copier that runs for
 * days pays once.
 *
 * <p>Threading: one thread.
 */
final class WatchedCopier {

    private static final Duration STOP_GRACE = Duration.ofSeconds(30);

    /** What runs while the copier is still up, once every record is there. */
    @FunctionalInterface
    interface WhileRunning {
        void run() throws Exception;
    }

    private final String system;
    private final TargetWatch watch;
    private final long launched;
    private final ChildProcess copier;
    private long cpuNanos;
    private long compilingNanos;
    /** Other processes measured over the same span (the brokers), by the name their figure gets. */
    private final Map<String, Long> neighbours = new LinkedHashMap<>();
    private final Map<String, Long> neighbourNanos = new LinkedHashMap<>();

    /** Call right after the launch; the watch connected before it, so its start-up is not in the time to the first. */
    WatchedCopier(String system, TargetWatch watch, long launchedNanos, ChildProcess copier) {
        this.system = system;
        this.watch = watch;
        this.launched = launchedNanos;
        this.copier = copier;
    }

    /** Measures the CPU time of process {@code pid} over the copy too, reported as {@code <name>_cpu_us_per_record}. */
    WatchedCopier alsoMeasure(String name, long pid) {
        neighbours.put(name, pid);
        return this;
    }

    /**
     * Waits for every record, then (unless {@code doneLine} is null) for the copier's line that says it ended well,
     * not just copied; runs {@code whileRunning}; stops the copier and drains the watch. A copier that stops early or
     * fails fails the run, with the last lines of its log.
     */
    void await(Duration timeout, String doneLine, WhileRunning whileRunning) throws Exception {
        long[] cpu = new long[2];
        Map<String, Long> neighboursAtFirst = new LinkedHashMap<>();
        CompilerThreads[] jit = new CompilerThreads[1];
        try {
            watch.awaitAll(timeout, () -> {
                cpu[0] = cpuNanos(copier.pid());
                jit[0] = CompilerThreads.watch(copier.pid());
                neighbours.forEach((name, pid) -> neighboursAtFirst.put(name, cpuNanos(pid)));
            }, () -> !copier.isAlive());
            if (jit[0] != null) {
                compilingNanos = jit[0].cpuNanos(); // first: the compiler threads' span lies within the copier's
            }
            cpu[1] = cpuNanos(copier.pid());
            neighbours.forEach((name, pid) -> neighbourNanos.put(name, cpuNanos(pid) - neighboursAtFirst.get(name)));
            if (doneLine != null) {
                copier.awaitLogLine(line -> line.startsWith(doneLine), timeout);
            }
            whileRunning.run();
        } catch (IllegalStateException e) {
            throw new IllegalStateException(system + ": " + e.getMessage() + ". Last lines of "
                    + copier.logFile() + ":\n" + tail(copier.logFile()), e);
        } finally {
            if (jit[0] != null) {
                jit[0].close();
            }
            copier.stop(STOP_GRACE);
        }
        watch.drain(timeout);
        cpuNanos = cpu[1] - cpu[0];
    }

    /** The figures of every watched copy of {@code records} records, after {@link #await}. */
    Map<String, Object> figures(long records) {
        Map<String, Object> r = new LinkedHashMap<>();
        double seconds = (watch.lastNanos() - watch.firstNanos()) / 1e9;
        r.put("records", records);
        r.put("seconds", seconds);
        r.put("records_per_sec", records / seconds);
        r.put("mb_per_sec", watch.valueBytes() / seconds / 1e6);
        r.put("cpu_us_per_record", cpuNanos / 1e3 / records);
        // an estimate: the compiler threads sampled every 100 ms (CompilerThreads)
        r.put("cpu_us_per_record_without_jit", Math.max(0, cpuNanos - compilingNanos) / 1e3 / records);
        neighbourNanos.forEach((name, nanos) -> r.put(name + "_cpu_us_per_record", nanos / 1e3 / records));
        r.put("first_record_seconds", (watch.firstNanos() - launched) / 1e9);
        r.put("target_records", watch.copies());
        r.put("duplicates", watch.duplicates());
        return r;
    }

    /** Every thread's CPU time of a process that is still running. */
    private static long cpuNanos(long pid) {
        return ProcessHandle.of(pid).flatMap(h -> h.info().totalCpuDuration())
                .orElseThrow(() -> new IllegalStateException("no CPU time for " + pid + " (exited?)"))
                .toNanos();
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
