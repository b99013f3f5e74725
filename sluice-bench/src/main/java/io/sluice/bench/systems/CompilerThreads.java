package io.sluice.bench.systems;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * The CPU time of this JVM's JIT compiler threads (HotSpot's {@code C1 CompilerThread}s and {@code C2
 * CompilerThread}s), read from Linux's {@code /proc/self/task}: they are not Java threads, so no MXBean gives their
 * CPU time, and the compilation MXBean's total is wall time. 0 where there is no {@code /proc}.
 *
 * <p>Threading: stateless.
 */
final class CompilerThreads {

    private static final Path TASKS = Path.of("/proc/self/task");
    /** Clock ticks per second of {@code /proc}'s times: 100 on Linux's common configurations. */
    private static final long TICKS_PER_SECOND = 100;

    private CompilerThreads() {
    }

    static long cpuNanos() {
        if (!Files.isDirectory(TASKS)) {
            return 0;
        }
        long ticks = 0;
        try (Stream<Path> tasks = Files.list(TASKS)) {
            for (Path task : (Iterable<Path>) tasks::iterator) {
                ticks += compilerTicks(task);
            }
        } catch (IOException e) {
            return 0;
        }
        return ticks * (1_000_000_000L / TICKS_PER_SECOND);
    }

    /** The thread's user and system ticks when it is a compiler thread; 0 otherwise or when it is gone. */
    private static long compilerTicks(Path task) {
        try {
            if (!Files.readString(task.resolve("comm")).contains("CompilerThre")) {
                return 0;
            }
            String stat = Files.readString(task.resolve("stat"));
            // after the name's closing parenthesis: state, then 10 fields, then utime and stime (fields 14 and 15)
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
        } catch (IOException | RuntimeException e) {
            return 0; // the thread ended meanwhile
        }
    }
}
