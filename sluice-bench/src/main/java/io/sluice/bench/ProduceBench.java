package io.sluice.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.bench.produce.ProduceInput;
import io.sluice.bench.produce.ProduceSystem;
import io.sluice.bench.produce.ProduceTrial;
import io.sluice.local.LocalDirs;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.testkit.Names;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * {@code bench/run produce}: every system sends the lines of one file, written once, to a fresh topic of one
 * single-node broker, measured from outside ({@link ProduceTrial}). kcat is left out, and the run says so, when it is
 * not installed (bench/run installs it when it can).
 *
 * <p>Threading: the main thread only.
 */
final class ProduceBench {

    private ProduceBench() {
    }

    static String run(Scenario scenario, BenchMain.Runs runs) throws Exception {
        try (KafkaCluster kafka = KafkaCluster.builder().name("bench-produce").jvmOptions(BenchMain.BROKER_JVM)
                .start()) {
            return run(scenario, runs, kafka);
        }
    }

    /** On a broker that is up already (the smoke test shares the test kit's). */
    static String run(Scenario scenario, BenchMain.Runs runs, KafkaCluster kafka) throws Exception {
        Optional<String> noKcat = kcatMissing();
        Scenario runnable = scenario;
        List<String> leftOut = List.of();
        if (noKcat.isPresent() && scenario.systems().contains(ProduceSystem.KCAT.id())) {
            leftOut = List.of(ProduceSystem.KCAT.id());
            BenchMain.log("kcat will not run: %s", noKcat.get());
            runnable = scenario.onlySystems(scenario.systems().stream().filter(s -> !s.equals("kcat")).toList());
        }
        Path dir = LocalDirs.newDir("bench-produce");
        long start = System.nanoTime();
        ProduceInput input = ProduceInput.write(dir, runnable);
        BenchMain.log("wrote %,d lines (%,.0f MB) to %s in %.1f s", input.records(), input.valueBytes() / 1e6,
                input.lines(), (System.nanoTime() - start) / 1e9);
        String json;
        try {
            if (!runs.smoke()) {
                warmUp(kafka, runnable);
            }
            Scenario s = runnable;
            ObjectMapper mapper = new ObjectMapper();
            json = BenchMain.runRounds(s, runs, (system, runDir) -> {
                if (!runs.smoke()) {
                    input.readThrough();
                }
                return mapper.valueToTree(new ProduceTrial(ProduceSystem.named(system), s, input,
                        runs.jvmOptions(system, runDir), runDir).run(kafka));
            });
        } finally {
            input.delete(); // 2 GB in a full run
        }
        return leftOut.isEmpty() ? json : MirrorBench.withLeftOut(json, leftOut, noKcat.get());
    }

    /**
     * Writes the scenario's records once to a topic that is then deleted, untimed: a broker that has just started
     * runs its request path in the interpreter, and the first system would pay for compiling it.
     */
    private static void warmUp(KafkaCluster kafka, Scenario scenario) throws Exception {
        String topic = Names.unique("produce-warm-up");
        kafka.createTopic(topic, scenario.partitions());
        long start = System.nanoTime();
        BenchData.produce(kafka.clientProperties(Listener.PLAINTEXT), topic, scenario);
        kafka.admin().deleteTopics(List.of(topic)).all().get(60, TimeUnit.SECONDS);
        BenchMain.log("warmed the broker up with %,d records in %.1f s", scenario.records(),
                (System.nanoTime() - start) / 1e9);
    }

    /** Why kcat cannot run, if it cannot: it is looked for on the PATH. */
    private static Optional<String> kcatMissing() {
        String path = System.getenv().getOrDefault("PATH", "");
        for (String dir : path.split(File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "kcat"))) {
                return Optional.empty();
            }
        }
        return Optional.of("no kcat on the PATH (Debian package kcat: apt-get install -y kcat)");
    }
}
