package io.sluice.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.bench.systems.MirrorCopierMain;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.local.process.ChildJvm;
import io.sluice.local.process.ChildProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * One copy of the source topic by one system, launched and measured from the benchmark's JVM in the same way for
 * every system, whether it runs Sluice or the plain copier ({@link MirrorCopierMain}) or is MirrorMaker 2: the time
 * from the launch to the first record a read_committed reader of the target sees, the rate from that record to the
 * last, and the copier process's CPU time over the same span (read from the operating system, so it counts every
 * thread of the copier and nothing of the reader's). Then the copier is stopped, the reader reads to the end, and a
 * record missing fails the run, as does one doubled by a system that promises exactly once.
 *
 * <p>Threading: one thread.
 */
final class MirrorRun {

    private static final Duration TIMEOUT = Duration.ofMinutes(40);
    private static final Duration STOP_GRACE = Duration.ofSeconds(30);

    private final MirrorSystem system;
    private final Scenario scenario;
    private final List<String> jvmOptions;
    private final Path runDir;
    private final MirrorMaker2.Classpath mm2;

    MirrorRun(MirrorSystem system, Scenario scenario, List<String> jvmOptions, Path runDir, MirrorMaker2.Classpath mm2) {
        this.system = system;
        this.scenario = scenario;
        this.jvmOptions = jvmOptions;
        this.runDir = runDir;
        this.mm2 = mm2;
    }

    /** Copies {@code topic} of {@code source} into {@code target} and returns the run's figures. */
    JsonNode copy(KafkaCluster source, String topic, KafkaCluster target) throws Exception {
        String run = Long.toHexString(System.nanoTime());
        String targetTopic = system.targetTopic(topic, run);
        Map<String, Object> r = new LinkedHashMap<>();
        String appGroup = "bench-app-" + run;
        Optional<FailoverCheck> failover = system.translatesGroups()
                ? Optional.of(FailoverCheck.commitMidway(source, topic, scenario.partitions(), appGroup, targetTopic))
                : Optional.empty();
        Map<Integer, Long> failedOverTo = null;
        try (TargetWatch watch = new TargetWatch(target.clientProperties(Listener.PLAINTEXT), targetTopic,
                scenario.partitions(), scenario.records())) {
            failover.ifPresent(check -> watch.observe(check::seen));
            long launched = System.nanoTime();
            ChildProcess copier = launch(source.bootstrapServers(), topic, target.bootstrapServers(),
                    system.targetPrefix(run), appGroup);
            long[] cpu = new long[2];
            try {
                watch.awaitAll(TIMEOUT, () -> cpu[0] = cpuNanos(copier), () -> !copier.isAlive());
                cpu[1] = cpuNanos(copier);
                if (!system.isMirrorMaker()) {
                    copier.awaitLogLine(line -> line.startsWith("COPIED "), TIMEOUT); // it ended well, not just copied
                }
                if (failover.isPresent()) {
                    // MirrorMaker 2 syncs every 5 s (a careful operator's setting; 60 s by default): two rounds
                    failedOverTo = failover.get().awaitTargetOffsets(target,
                            system.isMirrorMaker() ? Duration.ofSeconds(11) : Duration.ZERO);
                }
            } catch (IllegalStateException e) {
                throw new IllegalStateException(system.id() + ": " + e.getMessage() + ". Last lines of "
                        + copier.logFile() + ":\n" + tail(copier.logFile()), e);
            } finally {
                copier.stop(STOP_GRACE);
            }
            watch.drain(TIMEOUT);
            double seconds = (watch.lastNanos() - watch.firstNanos()) / 1e9;
            r.put("records", scenario.records());
            r.put("seconds", seconds);
            r.put("records_per_sec", scenario.records() / seconds);
            r.put("mb_per_sec", watch.valueBytes() / seconds / 1e6);
            r.put("cpu_us_per_record", (cpu[1] - cpu[0]) / 1e3 / scenario.records());
            r.put("first_record_seconds", (watch.firstNanos() - launched) / 1e9);
            r.put("target_records", watch.copies());
            r.put("duplicates", watch.duplicates());
            if (failedOverTo != null) {
                r.put("failover_reread", failover.get().rereadOnFailover(failedOverTo));
            }
            if (watch.distinct() != scenario.records() || (system.duplicatesFail() && watch.duplicates() > 0)) {
                throw new IllegalStateException(system.id() + " left " + watch.distinct() + " of "
                        + scenario.records() + " records in " + targetTopic + ", " + watch.duplicates()
                        + " copies more than once");
            }
        }
        // a full run's copies are a gigabyte: the target keeps none of them
        target.admin().deleteTopics(List.of(targetTopic)).all().get(60, TimeUnit.SECONDS);
        return new ObjectMapper().valueToTree(r);
    }

    private ChildProcess launch(String source, String topic, String target, String prefix, String appGroup) {
        if (system.isMirrorMaker()) {
            return MirrorMaker2.start(system, source, topic, target, mm2.jars(), jvmOptions, runDir);
        }
        return ChildJvm.builder(system.id())
                .classpathOfThisJvm()
                .jvmOptions(jvmOptions)
                .systemProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn")
                .mainClass(MirrorCopierMain.class.getName())
                .args(system.id(), source, topic, target, prefix, Integer.toString(scenario.partitions()), appGroup)
                .workDir(runDir)
                .build()
                .start();
    }

    /** Every thread's CPU time of a process that is still running. */
    private static long cpuNanos(ChildProcess process) {
        return ProcessHandle.of(process.pid()).flatMap(h -> h.info().totalCpuDuration())
                .orElseThrow(() -> new IllegalStateException("no CPU time for " + process.pid() + " (exited?)"))
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
