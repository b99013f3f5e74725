package io.sluice.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.testkit.Names;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;

/**
 * {@code bench/run mirror}: every system copies the scenario's topic from a source cluster to a target cluster, on
 * fresh topics every run. A full run gives every run two fresh single-node clusters, their internal topics made
 * ({@link InternalTopics}), the source topic just written and read once (a stale {@code mm2-offset-syncs} topic
 * confuses MirrorMaker 2, and a fresh pair for every system keeps the comparison even); the smoke form shares one
 * pair. MirrorMaker 2 is left out, and the run says so, when its
 * classpath could not be resolved.
 *
 * <p>Threading: the main thread only.
 */
final class MirrorBench {

    private static final String SOURCE = "mirror-source";
    private static final String TARGET = "mirror-target";

    private MirrorBench() {
    }

    static String run(Scenario scenario, BenchMain.Runs runs) throws Exception {
        refuseWhatCannotBeWarmed(scenario, runs);
        MirrorMaker2.Classpath mm2 = MirrorMaker2.classpath();
        Optional<String> missing = mm2.whyMissing();
        List<String> leftOut = scenario.systems().stream()
                .filter(s -> missing.isPresent() && MirrorSystem.named(s).isMirrorMaker()).toList();
        Scenario runnable = scenario;
        if (!leftOut.isEmpty()) {
            BenchMain.log("MirrorMaker 2 is missing, so %s will not run: %s", leftOut, missing.get());
            runnable = scenario.onlySystems(scenario.systems().stream().filter(s -> !leftOut.contains(s)).toList());
        }
        if (runs.warm()) {
            BenchMain.log("warm: each copier copies the topic once in its own JVM before the measured copy; 'first' "
                    + "then counts that copy too and says nothing of a start");
        }
        String json;
        if (runs.smoke()) {
            try (Clusters clusters = Clusters.start(SOURCE, TARGET)) {
                json = run(runnable, runs, clusters.get(0), clusters.get(1), mm2);
            }
        } else {
            json = runOnFreshClusters(runnable, runs, mm2);
        }
        json = markedWarm(json, runs);
        if (leftOut.isEmpty()) {
            return json;
        }
        BenchMain.log("left out: %s (%s)", leftOut, missing.get());
        return withLeftOut(json, leftOut, missing.get());
    }

    /** MirrorMaker 2 and the command run in processes of their own, which only measure a cold start. */
    private static void refuseWhatCannotBeWarmed(Scenario scenario, BenchMain.Runs runs) {
        List<String> unwarmable = scenario.systems().stream().map(MirrorSystem::named)
                .filter(s -> s.isMirrorMaker() || s.isCommand()).map(MirrorSystem::id).toList();
        if (runs.warm() && !unwarmable.isEmpty()) {
            throw new IllegalArgumentException("--warm warms the copiers that run in the benchmark's own child JVMs; "
                    + unwarmable + " run in processes of their own: leave them out with --systems");
        }
    }

    /** The smoke form on two clusters that are up already (the smoke test shares the test kit's). */
    static String run(Scenario scenario, BenchMain.Runs runs, KafkaCluster source, KafkaCluster target) {
        refuseWhatCannotBeWarmed(scenario, runs);
        return markedWarm(run(scenario, runs, source, target, MirrorMaker2.classpath()), runs);
    }

    private static String markedWarm(String json, BenchMain.Runs runs) {
        return runs.warm() ? withRootField(json, "warm", "each copier copied the topic once in its own JVM before the "
                + "measured copy; first_record_seconds counts that copy too") : json;
    }

    private static String run(Scenario scenario, BenchMain.Runs runs, KafkaCluster source, KafkaCluster target,
            MirrorMaker2.Classpath mm2) {
        String topic = writeSource(source, scenario);
        return BenchMain.runRounds(scenario, runs, (system, runDir) -> {
            if (!runs.smoke()) {
                BenchMain.warmUp(source, topic, scenario);
            }
            return new MirrorRun(MirrorSystem.named(system), scenario, runs.jvmOptions(system, runDir), runDir, mm2)
                    .copy(source, topic, target);
        });
    }

    private static String runOnFreshClusters(Scenario scenario, BenchMain.Runs runs, MirrorMaker2.Classpath mm2) {
        return BenchMain.runRounds(scenario, runs, (system, runDir) -> {
            try (Clusters clusters = Clusters.start(SOURCE, TARGET)) {
                KafkaCluster source = clusters.get(0);
                KafkaCluster target = clusters.get(1);
                InternalTopics.create(source);
                InternalTopics.create(target);
                BrokerWarmUp.warm(target, scenario.partitions());
                String topic = writeSource(source, scenario);
                BenchMain.warmUp(source, topic, scenario);
                // the topic just written is still dirty in the page cache: written back before, not during, the copy
                BenchMain.writeBackDirtyPages();
                return new MirrorRun(MirrorSystem.named(system), scenario, runs.jvmOptions(system, runDir), runDir,
                        mm2).copy(source, topic, target);
            }
        });
    }

    private static String writeSource(KafkaCluster source, Scenario scenario) {
        String topic = Names.unique(scenario.name());
        source.createTopic(topic, scenario.partitions());
        long start = System.nanoTime();
        BenchData.produce(source.clientProperties(Listener.PLAINTEXT), topic, scenario);
        BenchMain.log("wrote %,d records in %.1f s", scenario.records(), (System.nanoTime() - start) / 1e9);
        return topic;
    }

    private static String withRootField(String json, String name, String value) {
        try {
            ObjectMapper mapper = new ObjectMapper();
            ObjectNode root = (ObjectNode) mapper.readTree(json);
            root.put(name, value);
            return mapper.writeValueAsString(root);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String withLeftOut(String json, List<String> leftOut, String why) {
        try {
            ObjectMapper mapper = new ObjectMapper();
            ObjectNode root = (ObjectNode) mapper.readTree(json);
            ObjectNode node = root.putObject("left_out");
            leftOut.forEach(s -> node.put(s, why));
            return mapper.writeValueAsString(root);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
