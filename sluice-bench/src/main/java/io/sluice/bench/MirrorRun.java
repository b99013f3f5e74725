package io.sluice.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.bench.systems.Distribution;
import io.sluice.bench.systems.MirrorCopierMain;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.local.process.ChildJvm;
import io.sluice.local.process.ChildProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * One copy of the source topic by one system, launched and measured from the benchmark's JVM in the same way for
 * every system, whether it runs Sluice or the plain copier ({@link MirrorCopierMain}) or is MirrorMaker 2
 * ({@link WatchedCopier}: the time to the first record a read_committed reader of the target sees, the rate from that
 * record to the last, the copier's CPU time over the same span). A record missing fails the run, as does one doubled
 * by a system that promises exactly once.
 *
 * <p>Threading: one thread.
 */
final class MirrorRun {

    private static final Duration TIMEOUT = Duration.ofMinutes(40);

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
        String appGroup = "bench-app-" + run;
        Optional<FailoverCheck> failover = system.translatesGroups()
                ? Optional.of(FailoverCheck.commitMidway(source, topic, scenario.partitions(), appGroup, targetTopic))
                : Optional.empty();
        Map<String, Object> r;
        try (TargetWatch watch = new TargetWatch(target.clientProperties(Listener.PLAINTEXT), targetTopic,
                scenario.partitions(), scenario.records())) {
            failover.ifPresent(check -> watch.observe(check::seen));
            if (system.isCommand()) {
                Distribution.prepare();
            }
            long launched = System.nanoTime();
            WatchedCopier copier = new WatchedCopier(system.id(), watch, launched, launch(source.bootstrapServers(),
                    topic, target.bootstrapServers(), system.targetPrefix(run), appGroup))
                    .alsoMeasure("source_broker", source.nodes().get(0).pid())
                    .alsoMeasure("target_broker", target.nodes().get(0).pid());
            List<Map<Integer, Long>> failedOverTo = new ArrayList<>();
            // it ended well, not just copied (MirrorMaker 2 never ends)
            copier.await(TIMEOUT, system.runsUntilStopped() ? null : "COPIED ", () -> {
                if (failover.isPresent()) {
                    // MirrorMaker 2 syncs every 5 s (a careful operator's setting; 60 s by default): two rounds
                    failedOverTo.add(failover.get().awaitTargetOffsets(target,
                            system.isMirrorMaker() ? Duration.ofSeconds(11) : Duration.ZERO));
                }
            });
            r = copier.figures(scenario.records());
            if (!failedOverTo.isEmpty()) {
                r.put("failover_reread", failover.get().rereadOnFailover(failedOverTo.get(0)));
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
        if (system.isCommand()) {
            return CommandMirror.start(system.id(), source, topic, target, prefix, appGroup,
                    system == MirrorSystem.SLUICE_COMMAND ? "exactly-once" : "at-least-once", jvmOptions, runDir);
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
}
