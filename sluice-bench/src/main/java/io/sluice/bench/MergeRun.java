package io.sluice.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.bench.systems.MergeSystemMain;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.local.process.ChildJvm;
import io.sluice.merge.MergeConfig;
import io.sluice.merge.audit.MergeAudit;
import io.sluice.merge.audit.MergeAuditReport;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * One run of one system of the merge benchmark ({@link MergeSystemMain} in a JVM of its own), measured as the mirror
 * benchmark measures its copiers ({@link WatchedCopier}) over every record of both inputs. Every record must reach
 * the target exactly once (both systems promise it); a merge's output must also pass {@link MergeAudit} (each
 * committed input record once and unchanged, in merge order), and its provenance digest ({@link OutputDigest}) is
 * returned, for the rounds to be compared.
 *
 * <p>Threading: one thread.
 */
final class MergeRun {

    private static final Duration TIMEOUT = Duration.ofMinutes(40);

    /** The run's figures, and a merge's output digest (empty for the mirror). */
    record Result(JsonNode figures, Optional<String> digest) {
    }

    private final String system;
    private final Scenario scenario;
    private final List<String> jvmOptions;
    private final Path runDir;

    MergeRun(String system, Scenario scenario, List<String> jvmOptions, Path runDir) {
        this.system = system;
        this.scenario = scenario;
        this.jvmOptions = jvmOptions;
        this.runDir = runDir;
    }

    boolean merges() {
        return system.equals("sluice-merge");
    }

    Result run(MergeInputs inputs, KafkaCluster target) throws Exception {
        String run = Long.toHexString(System.nanoTime());
        String name = "bench-" + run;
        // the merge's output topic; the mirror's prefix, before each input's topic
        String output = merges() ? "sluice-merge-" + run : "sluice-mirror-" + run + ".";
        List<String> topics = merges() ? List.of(output)
                : List.of(output + inputs.westTopic(), output + inputs.eastTopic());
        OutputDigest digest = new OutputDigest();
        Map<String, Object> r;
        try (TargetWatch watch = new TargetWatch(target.clientProperties(Listener.PLAINTEXT), topics,
                scenario.partitions(), scenario.records())) {
            if (merges()) {
                watch.observe(digest::add);
            }
            long launched = System.nanoTime();
            WatchedCopier copier = new WatchedCopier(system, watch, launched, ChildJvm.builder(system)
                    .classpathOfThisJvm()
                    .jvmOptions(jvmOptions)
                    .systemProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn")
                    .mainClass(MergeSystemMain.class.getName())
                    .args(system, inputs.west().bootstrapServers(), inputs.westTopic(),
                            inputs.east().bootstrapServers(), inputs.eastTopic(), target.bootstrapServers(), output,
                            name)
                    .workDir(runDir)
                    .build()
                    .start());
            copier.await(TIMEOUT, "DONE ", () -> { });
            r = copier.figures(scenario.records());
            if (watch.distinct() != scenario.records() || watch.duplicates() > 0) {
                throw new IllegalStateException(system + " left " + watch.distinct() + " of " + scenario.records()
                        + " records in " + topics + ", " + watch.duplicates() + " copies more than once");
            }
        }
        if (merges()) {
            r.put("late_records", audit(MergeSystemMain.config(name, inputs.west().bootstrapServers(),
                    inputs.westTopic(), inputs.east().bootstrapServers(), inputs.eastTopic(),
                    target.bootstrapServers(), output)));
        }
        // a full run's output is two gigabytes: the target keeps none of it
        target.admin().deleteTopics(topics).all().get(60, TimeUnit.SECONDS);
        return new Result(new ObjectMapper().valueToTree(r), merges() ? Optional.of(digest.text()) : Optional.empty());
    }

    /** The merge's proof, as {@code verify} would run it; the records it found flagged late (none in a backlog). */
    private long audit(MergeConfig config) throws Exception {
        long start = System.nanoTime();
        MergeAuditReport report = MergeAudit.run(config);
        if (!report.ok()) {
            throw new IllegalStateException(system + "'s output fails the merge audit: " + report.firstProblem());
        }
        BenchMain.log("merge audit OK in %.1f s: %s", (System.nanoTime() - start) / 1e9,
                String.join("; ", report.partitions().stream().map(MergeAuditReport.Partition::summary).toList()));
        return report.partitions().stream().mapToLong(MergeAuditReport.Partition::lateRecords).sum();
    }
}
