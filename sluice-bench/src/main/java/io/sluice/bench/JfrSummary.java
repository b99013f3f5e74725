package io.sluice.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

/**
 * Where a profiled system spent its time: {@code bench/jfr <recording.jfr>...} reads the recordings that
 * {@code bench/run --profile} leaves next to each run and prints the hot methods (by their own time and with what
 * they call), the busy threads, the collector's pauses and the sites that allocate most. JDK 17's {@code jfr} tool has
 * no such view, and these four are what the archive's hot path was tuned with.
 *
 * <p>Execution samples cover Java code only: time in native code (zstd, the kernel) and in the collector's threads
 * shows as the gap between these samples and the run's CPU time.
 *
 * <p>Threading: one thread.
 */
public final class JfrSummary {

    private static final int TOP = 25;

    private final Map<String, Long> self = new HashMap<>();
    private final Map<String, Long> inclusive = new HashMap<>();
    private final Map<String, Long> threads = new HashMap<>();
    private final Map<String, Long> allocated = new HashMap<>();
    private final Map<String, Long> collections = new HashMap<>();
    private final Map<String, Duration> pauses = new HashMap<>();
    private long samples;
    private long allocatedTotal;

    private JfrSummary() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length == 0) {
            System.err.println("usage: bench/jfr <recording.jfr>... (bench/run --profile leaves one per run under "
                    + "sluice-bench/target/bench/bench-runs-*/<system>-<round>/)");
            System.exit(2);
        }
        for (String file : args) {
            summarize(Path.of(file)).print(file, System.out);
        }
    }

    static JfrSummary summarize(Path recording) throws IOException {
        JfrSummary summary = new JfrSummary();
        try (RecordingFile events = new RecordingFile(recording)) {
            while (events.hasMoreEvents()) {
                summary.add(events.readEvent());
            }
        }
        return summary;
    }

    private void add(RecordedEvent event) {
        switch (event.getEventType().getName()) {
            case "jdk.ExecutionSample" -> sample(event);
            case "jdk.ObjectAllocationSample" -> allocation(event);
            case "jdk.GarbageCollection" -> {
                String collector = event.getString("name");
                collections.merge(collector, 1L, Long::sum);
                pauses.merge(collector, event.getDuration("sumOfPauses"), Duration::plus);
            }
            default -> {
            }
        }
    }

    private void sample(RecordedEvent event) {
        samples++;
        threads.merge(threadName(event.getThread("sampledThread")), 1L, Long::sum);
        List<RecordedFrame> frames = frames(event.getStackTrace());
        if (frames.isEmpty()) {
            return;
        }
        self.merge(method(frames.get(0)), 1L, Long::sum);
        Set<String> seen = new HashSet<>(); // a recursive method counts once per sample
        for (RecordedFrame frame : frames) {
            String method = method(frame);
            if (seen.add(method)) {
                inclusive.merge(method, 1L, Long::sum);
            }
        }
    }

    private void allocation(RecordedEvent event) {
        long weight = event.getLong("weight");
        allocatedTotal += weight;
        List<RecordedFrame> frames = frames(event.getStackTrace());
        String site = frames.isEmpty() ? "?" : method(frames.get(0));
        allocated.merge(event.getClass("objectClass").getName() + " in " + site, weight, Long::sum);
    }

    private static List<RecordedFrame> frames(RecordedStackTrace stack) {
        return stack == null ? List.of() : stack.getFrames();
    }

    private static String method(RecordedFrame frame) {
        String type = frame.getMethod().getType().getName();
        return type.substring(type.lastIndexOf('.') + 1) + "." + frame.getMethod().getName();
    }

    /** Thread names without their numbers and ids, so a pool's threads add up. */
    private static String threadName(RecordedThread thread) {
        return threadName(thread == null ? "?" : thread.getJavaName() != null ? thread.getJavaName()
                : thread.getOSName());
    }

    static String threadName(String name) {
        return name.replaceAll("[0-9a-f]{8,}|\\d+", "#");
    }

    void print(String title, PrintStream out) {
        out.printf(Locale.ROOT, "== %s: %,d execution samples%n", title, samples);
        table(out, "threads", threads, samples);
        table(out, "methods by their own time", self, samples);
        table(out, "methods with what they call", inclusive, samples);
        out.println("-- collections");
        collections.forEach((collector, count) -> out.printf(Locale.ROOT, "  %-24s %,6d, pauses %.2f s%n", collector,
                count, pauses.get(collector).toNanos() / 1e9));
        out.printf(Locale.ROOT, "-- allocation sites (%.2f GB sampled)%n", allocatedTotal / 1e9);
        allocated.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(TOP)
                .forEach(e -> out.printf(Locale.ROOT, "  %7.2f GB  %s%n", e.getValue() / 1e9, e.getKey()));
    }

    private static void table(PrintStream out, String title, Map<String, Long> counts, long total) {
        out.println("-- " + title);
        counts.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey(
                        Comparator.naturalOrder())))
                .limit(TOP)
                .forEach(e -> out.printf(Locale.ROOT, "  %5.1f%%  %s%n", 100.0 * e.getValue() / total, e.getKey()));
    }

    /** The share of samples in which {@code method} ({@code Class.method}) was on the stack. */
    double inclusiveShare(String method) {
        return samples == 0 ? 0 : (double) inclusive.getOrDefault(method, 0L) / samples;
    }
}
