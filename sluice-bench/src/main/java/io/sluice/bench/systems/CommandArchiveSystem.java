package io.sluice.bench.systems;

import io.sluice.bench.ArchiveWork;
import io.sluice.bench.BenchData;
import io.sluice.bench.Scenario;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Sluice as users run it (issue 17, 0b): {@code ./sluice run pipeline.yaml --until-end}, the README's script running
 * the shipped distribution ({@code sluice-cli/target/sluice.jar}), with a pipeline file that names only what the
 * scenario's work is (topic, location, template, time field, format and codec) and leaves every other setting, the
 * script's JVM options included, at its default. Measured from outside,
 * as the produce benchmark measures its tools: the wall time from the launch to the exit, and the process's CPU time
 * and peak resident memory as the operating system counted them ({@code /usr/bin/time}), JVM start and group join
 * included. The heap peak is read from the JVM's own collection log ({@code -Xlog:gc}, which only observes): the
 * heap in use after each collection, the largest, as {@link HeapPeak} measures the in-process systems.
 *
 * <p>Threading: one thread.
 */
final class CommandArchiveSystem {

    private static final String TIME = "/usr/bin/time";
    /**
     * A collection's line: {@code ... Pause Young (Normal) (G1 Evacuation Pause) 120M->45M(256M) 3.1ms}, or a full one.
     * G1's Remark and Cleanup pauses are left out: they move no young object, so their "after" still counts everything
     * allocated since the last young collection, and the JVM does not report them to {@link HeapPeak} either (JDK 17).
     */
    private static final Pattern AFTER_COLLECTION = Pattern.compile(
            "Pause (?:Young|Full)\\b.*?(\\d+)([KMG])->(\\d+)([KMG])\\(");
    /** The heap at exit ({@code gc+heap+exit}): {@code garbage-first heap   total 397312K, used 17947K [...]}. */
    private static final Pattern AT_EXIT = Pattern.compile("heap\\s+total.*?used (\\d+)K");

    private CommandArchiveSystem() {
    }

    /**
     * With {@code bench/run --profile}, which records this JVM (the one that starts the command and reads its files
     * back), a recording of the command's own JVM beside it, {@code command.jfr}: that is where the archive runs.
     */
    private static String flightRecording(Path runDir) {
        boolean profiled = ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .anyMatch(o -> o.startsWith("-XX:StartFlightRecording"));
        return profiled ? "-XX:StartFlightRecording=settings=profile,filename=" + runDir.resolve("command.jfr") + " "
                : "";
    }

    /** Archives the whole topic with the command and returns its figures; the caller reads the output back. */
    static Map<String, Object> run(String bootstrap, String topic, Scenario scenario, Path output) throws Exception {
        Path runDir = output.toAbsolutePath().getParent();
        Path pipeline = writePipeline(runDir, bootstrap, topic, scenario.archive(), output);
        Path times = runDir.resolve("cpu-seconds");
        Path gcLog = runDir.resolve("gc.log");
        Path log = runDir.resolve("sluice-command.log");
        List<String> command = List.of(TIME, "-f", "%U %S %M", "-o", times.toString(),
                Distribution.script().toString(), "run", pipeline.toString(), "--until-end");
        ProcessBuilder builder = new ProcessBuilder(command).directory(runDir.toFile()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        // the collection log only observes; SLUICE_JAVA_OPTS given to the benchmark still reach the JVM (A/B runs)
        builder.environment().putAll(Distribution.environment("-Xlog:gc,gc+heap+exit:file=" + gcLog + " "
                + flightRecording(runDir) + System.getenv().getOrDefault("SLUICE_JAVA_OPTS", "")));
        Distribution.prepare(); // the archive a first start after a build makes, made before the measured start
        long launched = System.nanoTime();
        Process process = builder.start();
        if (!process.waitFor(ArchiveSystem.TIMEOUT.toMinutes(), TimeUnit.MINUTES)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            throw new IllegalStateException("the sluice command did not end within " + ArchiveSystem.TIMEOUT + "; see "
                    + log);
        }
        double seconds = (System.nanoTime() - launched) / 1e9;
        if (process.exitValue() != 0) {
            throw new IllegalStateException("the sluice command exited with status " + process.exitValue() + "; see "
                    + log);
        }
        String[] used = lastLine(times).trim().split(" ");
        double cpuSeconds = Double.parseDouble(used[0]) + Double.parseDouble(used[1]);
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("records", scenario.records());
        r.put("seconds", seconds);
        r.put("records_per_sec", scenario.records() / seconds);
        r.put("cpu_us_per_record", cpuSeconds * 1e6 / scenario.records());
        r.put("rss_peak_mb", Long.parseLong(used[2]) * 1024 / 1e6);
        r.put("heap_peak_mb", heapPeakBytes(gcLog) / 1e6);
        return r;
    }

    /** The pipeline a user would write for the scenario's work: nothing about threads, memory, rolling or commits. */
    static Path writePipeline(Path runDir, String bootstrap, String topic, ArchiveWork work, Path output)
            throws IOException {
        StringBuilder yaml = new StringBuilder()
                .append("source:\n")
                .append("  bootstrap-servers: ").append(bootstrap).append('\n')
                .append("  topics: [").append(topic).append("]\n")
                .append("  group: ").append(SystemMain.group("sluice-command")).append('\n')
                .append("  start: earliest\n")
                .append("sink:\n")
                .append("  location: ").append(output.toAbsolutePath()).append('\n')
                .append("  template: \"").append(work.pathTemplate()).append("\"\n")
                .append("  time-field: ").append(work.timeField()).append('\n');
        for (Map.Entry<String, String> key : work.formatKeys().entrySet()) {
            String value = key.getValue();
            if (key.getKey().equals("schema")) {
                Files.writeString(runDir.resolve(value), BenchData.LOG_SCHEMA, StandardCharsets.UTF_8);
            }
            yaml.append("  ").append(key.getKey()).append(": ").append(value).append('\n');
        }
        Path pipeline = runDir.resolve("pipeline.yaml");
        Files.writeString(pipeline, yaml, StandardCharsets.UTF_8);
        return pipeline;
    }

    /**
     * The largest heap in use after a collection, from a {@code -Xlog:gc} file; with no collection (a short run), the
     * heap in use at exit, as {@link HeapPeak} falls back to the heap in use at its end.
     */
    static long heapPeakBytes(Path gcLog) throws IOException {
        long peak = 0;
        long atExit = 0;
        for (String line : Files.readAllLines(gcLog)) {
            Matcher collection = AFTER_COLLECTION.matcher(line);
            Matcher exit = AT_EXIT.matcher(line);
            if (collection.find()) {
                peak = Math.max(peak, bytes(collection.group(3), collection.group(4)));
            } else if (atExit == 0 && exit.find()) {
                atExit = Long.parseLong(exit.group(1)) << 10;
            }
        }
        return peak > 0 ? peak : atExit;
    }

    private static long bytes(String amount, String unit) {
        long n = Long.parseLong(amount);
        return switch (unit) {
            case "K" -> n << 10;
            case "M" -> n << 20;
            default -> n << 30;
        };
    }

    /** The last line {@code /usr/bin/time} wrote (a line before it says why a run failed). */
    private static String lastLine(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file);
        return lines.get(lines.size() - 1);
    }
}
