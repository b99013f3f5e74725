package io.sluice.bench.produce;

import io.sluice.bench.Scenario;
import io.sluice.bench.TopicCopies;
import io.sluice.bench.systems.Distribution;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.testkit.Names;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One run of one system: it sends the input file to a fresh topic, measured from outside the same way for every
 * system, Java or not: the wall time from the launch of its process to its exit, and that process's CPU time (user
 * and system, every thread) as the operating system counted it ({@code /usr/bin/time}). Then a read_committed reader
 * counts the records in the topic by the {@code seq} each line carries, never by end offsets (which count transaction
 * markers), and the topic is deleted (a full run's is 2 GB).
 *
 * <p>A missing line fails a Sluice run, as does a doubled line of the exactly-once run, and any system's non-zero
 * exit; a peer's missing or doubled lines are reported.
 *
 * <p>Threading: one thread.
 */
public final class ProduceTrial {

    private static final Duration TIMEOUT = Duration.ofMinutes(30);
    private static final String TIME = "/usr/bin/time";

    private final ProduceSystem system;
    private final Scenario scenario;
    private final ProduceInput input;
    private final List<String> jvmOptions;
    private final Path runDir;

    public ProduceTrial(ProduceSystem system, Scenario scenario, ProduceInput input, List<String> jvmOptions, Path runDir) {
        this.system = system;
        this.scenario = scenario;
        this.input = input;
        this.jvmOptions = jvmOptions;
        this.runDir = runDir;
    }

    /** The run's figures, named as the report reads them. */
    public Map<String, Object> run(KafkaCluster kafka) throws Exception {
        Files.createDirectories(runDir);
        String topic = Names.unique("produce-" + system.id());
        kafka.createTopic(topic, scenario.partitions());
        Path log = runDir.resolve(system.id() + ".log");
        Path times = runDir.resolve("cpu-seconds");
        List<String> command = new ArrayList<>(List.of(TIME, "-f", "%U %S", "-o", times.toString()));
        command.addAll(system.command(kafka.bootstrapServers(), topic, input, jvmOptions, runDir));
        ProcessBuilder builder = new ProcessBuilder(command).directory(runDir.toFile()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .redirectInput(system.readsStandardInput() ? input.lines().toFile() : new File("/dev/null"));
        builder.environment().putAll(system.environment(jvmOptions));
        if (system.isSluice()) {
            Distribution.prepare(); // the archive a first start after a build makes, made before the measured start
        }
        long launched = System.nanoTime();
        Process process = builder.start();
        if (!process.waitFor(TIMEOUT.toMinutes(), TimeUnit.MINUTES)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            throw new IllegalStateException(system.id() + " did not end within " + TIMEOUT + "; see " + log);
        }
        double seconds = (System.nanoTime() - launched) / 1e9;
        if (process.exitValue() != 0) {
            throw new IllegalStateException(system.id() + " exited with status " + process.exitValue() + "; see "
                    + log);
        }
        double cpuSeconds = cpuSeconds(times);
        TopicCopies copies = TopicCopies.read(kafka.clientProperties(Listener.PLAINTEXT), topic, scenario.records());
        int records = scenario.records();
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("records", records);
        r.put("seconds", seconds);
        r.put("records_per_sec", records / seconds);
        r.put("mb_per_sec", input.valueBytes() / seconds / 1e6); // every value is the same size, sent or drawn
        r.put("cpu_us_per_record", cpuSeconds * 1e6 / records);
        r.put("topic_records", copies.total());
        if (system.sendsEachLineOnce()) {
            long missing = records - copies.distinct();
            long duplicates = copies.total() - copies.distinct();
            r.put("missing", missing);
            r.put("duplicates", duplicates);
            if (system.isSluice() && (missing > 0 || (system.duplicatesFail() && duplicates > 0))) {
                throw new IllegalStateException(system.id() + " left " + copies.distinct() + " of " + records
                        + " lines in " + topic + ", " + duplicates + " copies more than once");
            }
        } else if (copies.total() < records) {
            throw new IllegalStateException(system.id() + " left " + copies.total() + " of " + records
                    + " records in " + topic);
        }
        kafka.admin().deleteTopics(List.of(topic)).all().get(60, TimeUnit.SECONDS);
        return r;
    }

    /** User and system seconds, the last line {@code /usr/bin/time} wrote (a line before it says why a run failed). */
    private double cpuSeconds(Path times) throws IOException {
        List<String> lines = Files.readAllLines(times);
        String[] fields = lines.get(lines.size() - 1).trim().split(" ");
        return Double.parseDouble(fields[0]) + Double.parseDouble(fields[1]);
    }
}
