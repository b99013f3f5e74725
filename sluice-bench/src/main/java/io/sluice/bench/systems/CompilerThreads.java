package io.sluice.bench.systems;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The CPU time of this JVM's JIT compiler threads (HotSpot's {@code C1 CompilerThread}s and {@code C2
 * CompilerThread}s, JVMCI's), read from Linux's {@code /proc/self/task}: they are not Java threads, so no MXBean gives
 * their CPU time, and the compilation MXBean's total is wall time. HotSpot starts and stops compiler threads as the
 * work needs, so one reading at each end would miss those that came and went: {@link #watch} samples them every
 * {@link #EVERY_MILLIS} ms, and a thread's work is what it did since the watch began (all of it, for a thread that
 * began later). A thread that ends between two samples loses its last interval. Where there is no {@code /proc}, 0:
 * an estimate, to be read as one.
 *
 * <p>The same for another JVM on this machine ({@link #watch(long)}: a copier in a process of its own), read from its
 * {@code /proc/<pid>/task}.
 *
 * <p>Threading: {@link #watch} from any thread; the samples on a daemon thread of their own; {@link #cpuNanos} and
 * {@link #close} from any thread.
 */
public final class CompilerThreads implements AutoCloseable {

    /** Clock ticks per second of {@code /proc}'s times: 100 on Linux's common configurations. */
    private static final long TICKS_PER_SECOND = 100;
    static final long EVERY_MILLIS = 100;

    private final Path tasks;
    private final Map<String, Long> atStart;
    private final Map<String, Long> latest = new HashMap<>();
    private Thread sampler;

    private CompilerThreads(Path tasks) {
        this.tasks = tasks;
        this.atStart = sample(tasks);
        latest.putAll(atStart);
    }

    /** Begins watching this JVM's compiler threads now. */
    static CompilerThreads watch() {
        return watching(Path.of("/proc/self/task"));
    }

    /** Begins watching the compiler threads of the JVM of process {@code pid} now. */
    public static CompilerThreads watch(long pid) {
        return watching(Path.of("/proc", Long.toString(pid), "task"));
    }

    private static CompilerThreads watching(Path tasks) {
        CompilerThreads watch = new CompilerThreads(tasks);
        Thread sampler = new Thread(() -> {
            while (true) {
                try {
                    Thread.sleep(EVERY_MILLIS);
                } catch (InterruptedException e) {
                    return;
                }
                watch.record(sample(tasks));
            }
        }, "bench-jit-sampler");
        sampler.setDaemon(true);
        synchronized (watch) {
            watch.sampler = sampler;
        }
        sampler.start();
        return watch;
    }

    /** Stops sampling; {@link #cpuNanos} goes on reading once more when asked. */
    @Override
    public synchronized void close() {
        sampler.interrupt();
    }

    private synchronized void record(Map<String, Long> sample) {
        sample.forEach((tid, ticks) -> latest.merge(tid, ticks, Math::max));
    }

    /** The compiler threads' CPU time since the watch began. */
    public synchronized long cpuNanos() {
        record(sample(tasks));
        long ticks = 0;
        for (Map.Entry<String, Long> e : latest.entrySet()) {
            ticks += e.getValue() - atStart.getOrDefault(e.getKey(), 0L);
        }
        return ticks * (1_000_000_000L / TICKS_PER_SECOND);
    }

    /** Each compiler thread's user and system ticks now, by thread id. */
    private static Map<String, Long> sample(Path tasks) {
        Map<String, Long> ticks = new HashMap<>();
        if (!Files.isDirectory(tasks)) {
            return ticks;
        }
        try (Stream<Path> each = Files.list(tasks)) {
            for (Path task : (Iterable<Path>) each::iterator) {
                long t = compilerTicks(task);
                if (t >= 0) {
                    ticks.put(task.getFileName().toString(), t);
                }
            }
        } catch (IOException e) {
            // no reading this time: the next sample has it
        }
        return ticks;
    }

    /** The thread's user and system ticks when it is a compiler thread; -1 otherwise or when it is gone. */
    private static long compilerTicks(Path task) {
        try {
            if (!Files.readString(task.resolve("comm")).contains("CompilerThre")) {
                return -1;
            }
            String stat = Files.readString(task.resolve("stat"));
            // after the name's closing parenthesis: state, then 10 fields, then utime and stime (fields 14 and 15)
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
        } catch (IOException | RuntimeException e) {
            return -1; // the thread ended meanwhile
        }
    }
}
