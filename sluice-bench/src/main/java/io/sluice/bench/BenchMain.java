package io.sluice.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.bench.systems.SystemMain;
import io.sluice.local.LocalDirs;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.local.process.ChildJvm;
import io.sluice.local.process.ChildProcess;
import io.sluice.testkit.Names;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * {@code bench/run [--smoke] [--rounds N] [--profile] <scenario>}: starts a real broker, writes the scenario's data
 * once, warms the broker up, then runs every system in a JVM of its own, interleaved round after round (the order
 * rotates), and reports the median and spread of each, ending with one JSON line. Scenarios without a broker (codecs) skip the
 * broker and the data, and keep the rest; the mirror has two clusters, fresh for every run ({@link MirrorBench}),
 * the merge three ({@link MergeBench}); the acks table three brokers, one of which every run kills ({@link
 * AcksBench}); the produce scenario sends a file of its own, not the topic ({@link ProduceBench}).
 *
 * <p>Threading: the main thread only.
 */
public final class BenchMain {

    /** Every system's JVM gets the same heap and collector. */
    static final List<String> SYSTEM_JVM = List.of("-Xms1g", "-Xmx1g", "-XX:+UseG1GC");
    /** The smoke form measures nothing: cheap JVMs (no C2 compiler, serial GC), as the test kit starts its children. */
    static final List<String> SMOKE_JVM = List.of("-Xmx512m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");
    static final List<String> BROKER_JVM = List.of("-Xms1g", "-Xmx1g", "-XX:+UseG1GC");
    /** Set in a system's JVM by {@code --warm}. */
    public static final String WARM_PROPERTY = "sluice.bench.warm";

    private BenchMain() {
    }

    public static void main(String[] args) throws Exception {
        boolean smoke = false;
        boolean profile = false;
        boolean warm = false;
        int rounds = -1;
        String name = null;
        List<String> systems = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--smoke" -> smoke = true;
                case "--profile" -> profile = true;
                case "--warm" -> warm = true;
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--systems" -> systems = List.of(args[++i].split(","));
                case "--help", "-h" -> usage(0);
                default -> name = args[i];
            }
        }
        if (name == null || !"testkit-startup".equals(name) && !List.of(Scenario.NAMES.split(", ")).contains(name)) {
            if (name != null) {
                System.err.println("no scenario named '" + name + "'");
            }
            usage(2);
        }
        if ("testkit-startup".equals(name)) {
            TestKitStartup.main(args);
            return;
        }
        if (rounds < 0) {
            rounds = smoke ? 1 : 3;
        }
        Scenario scenario = Scenario.named(name, smoke);
        if (systems != null) {
            scenario = scenario.onlySystems(systems);
        }
        if (warm && scenario.kind() != Scenario.Kind.MIRROR) {
            System.err.println("--warm is for the mirror scenario: its copiers that run in Java copy the topic once "
                    + "before the measured copy");
            System.exit(2);
        }
        String json = run(scenario, new Runs(rounds, smoke, profile, warm));
        System.out.println(json);
        System.exit(0);
    }

    private static void usage(int exit) {
        (exit == 0 ? System.out : System.err).println("usage: bench/run [--smoke] [--rounds N] [--profile] [--warm] "
                + "[--systems a,b] <scenario>; scenarios: " + Scenario.NAMES + ", testkit-startup");
        System.exit(exit);
    }

    /**
     * How the systems run.
     *
     * @param profile each system's JVM records a Java Flight Recording ({@code settings=profile}) next to its output,
     *                to see where a system spends its time; the figures then include the recorder's cost
     * @param warm    (mirror) each copier copies the topic once in its own JVM before the copy that is measured, so
     *                that the figures show it compiled rather than compiling: in a copy of ten seconds the JIT
     *                compiler's threads run throughout, about a third of each copier's CPU
     */
    record Runs(int rounds, boolean smoke, boolean profile, boolean warm) {

        /** The smoke form, once. */
        static Runs smokeOnce() {
            return new Runs(1, true, false, false);
        }

        List<String> jvmOptions(String system, Path runDir) {
            List<String> options = new ArrayList<>(smoke ? SMOKE_JVM : SYSTEM_JVM);
            // as the command's JVM gets them: a property set for an A/B run reaches the in-process systems too
            String extra = System.getenv().getOrDefault("SLUICE_JAVA_OPTS", "").trim();
            if (!extra.isEmpty()) {
                options.addAll(List.of(extra.split("\\s+")));
            }
            if (warm) {
                options.add("-D" + WARM_PROPERTY + "=true");
            }
            if (profile) {
                options.add("-XX:StartFlightRecording=settings=profile,filename=" + runDir.resolve(system + ".jfr"));
            }
            return options;
        }
    }

    static String run(Scenario scenario, Runs runs) throws Exception {
        if (!scenario.kind().needsBroker()) {
            return runRounds(scenario, runs, (system, runDir) -> runSystem(system, null, "-", scenario, runs, runDir));
        }
        if (scenario.kind() == Scenario.Kind.MIRROR) {
            return MirrorBench.run(scenario, runs);
        }
        if (scenario.kind() == Scenario.Kind.MERGE) {
            return MergeBench.run(scenario, runs);
        }
        if (scenario.kind() == Scenario.Kind.ACKS) {
            return AcksBench.run(scenario, runs);
        }
        if (scenario.kind() == Scenario.Kind.PRODUCE) {
            return ProduceBench.run(scenario, runs);
        }
        try (KafkaCluster kafka = KafkaCluster.builder().name("bench-kafka").jvmOptions(BROKER_JVM).start()) {
            return run(scenario, runs, kafka);
        }
    }

    /** Runs a scenario on a broker that is already up (the smoke test shares one between scenarios). */
    static String run(Scenario scenario, Runs runs, KafkaCluster kafka) {
        String topic = Names.unique(scenario.name());
        kafka.createTopic(topic, scenario.partitions());
        long start = System.nanoTime();
        BenchData.produce(kafka.clientProperties(Listener.PLAINTEXT), topic, scenario);
        log("wrote %,d records in %.1f s", scenario.records(), (System.nanoTime() - start) / 1e9);
        warmUp(kafka, topic, scenario);
        return runRounds(scenario, runs, (system, runDir) -> {
            if (!runs.smoke()) {
                // the page cache goes cold within a minute on this machine (the smoke form measures nothing)
                warmUp(kafka, topic, scenario);
            }
            return runSystem(system, kafka, topic, scenario, runs, runDir);
        });
    }

    /** One run of one system: the figures it reported. */
    @FunctionalInterface
    interface SystemRun {
        JsonNode run(String system, Path runDir) throws Exception;
    }

    /** Every system once per round, each in a JVM of its own, the order rotating from round to round. */
    static String runRounds(Scenario scenario, Runs runs, SystemRun systemRun) {
        Report report = new Report(scenario);
        List<String> order = new ArrayList<>(scenario.systems());
        Path dir = LocalDirs.newDir("bench-runs");
        for (int round = 1; round <= runs.rounds(); round++) {
            for (String system : order) {
                if (!runs.smoke()) {
                    writeBackDirtyPages();
                }
                long start = System.nanoTime();
                JsonNode result;
                try {
                    result = systemRun.run(system, dir.resolve(system + "-" + round));
                } catch (RuntimeException e) {
                    throw e;
                } catch (Exception e) {
                    throw new IllegalStateException(system + " failed in round " + round + ": " + e, e);
                }
                report.add(system, result);
                log("round %d %-18s %,12.0f %s (its JVM ran %.1f s)", round, system,
                        result.path(report.headline()).asDouble(), report.headline().replace('_', ' '),
                        (System.nanoTime() - start) / 1e9);
            }
            Collections.rotate(order, 1);
        }
        System.out.print(report.table());
        return report.json();
    }

    /**
     * Runs one system in its own JVM and returns the figures it printed. An archiving system writes under
     * {@code runDir}/archive, which is removed once the system has read it back (a full run writes gigabytes), and
     * kept when the run fails.
     */
    private static JsonNode runSystem(String system, KafkaCluster kafka, String topic, Scenario scenario, Runs runs,
            Path runDir) {
        Path output = runDir.resolve("archive");
        ChildProcess child = ChildJvm.builder(system)
                .classpathOfThisJvm()
                .jvmOptions(runs.jvmOptions(system, runDir))
                .systemProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn")
                .mainClass(SystemMain.class.getName())
                .args(system, kafka == null ? "-" : kafka.bootstrapServers(), topic, scenario.name(),
                        Boolean.toString(runs.smoke()), output.toString())
                .workDir(LocalDirs.createDirectories(runDir))
                .build()
                .start();
        String line = child.awaitLogLine(l -> l.startsWith("RESULT "), Duration.ofMinutes(40));
        child.waitForExit();
        LocalDirs.deleteTree(output); // kept when the run failed, to look at
        try {
            return new ObjectMapper().readTree(line.substring("RESULT ".length()));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(system + " printed a result that is not JSON: " + line, e);
        }
    }

    /** Reads the whole topic once, untimed: a cold broker halves the first reader's throughput. */
    static void warmUp(KafkaCluster kafka, String topic, Scenario scenario) {
        warmUp(kafka, topic, scenario.partitions(), scenario.records());
    }

    /** As {@link #warmUp(KafkaCluster, String, Scenario)}, for a topic of {@code records} records. */
    static void warmUp(KafkaCluster kafka, String topic, int partitions, long records) {
        readFromStart(kafka, topic, partitions, records, "read_uncommitted");
    }

    /**
     * Reads {@code topic} from its start until {@code records} records came, at {@code isolation}
     * ({@code read_committed} or {@code read_uncommitted}); fails after 5 minutes.
     */
    static void readFromStart(KafkaCluster kafka, String topic, int partitions, long records, String isolation) {
        Map<String, Object> props = new HashMap<>(kafka.clientProperties(Listener.PLAINTEXT));
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation);
        try (var consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> tps = new ArrayList<>();
            for (int p = 0; p < partitions; p++) {
                tps.add(new TopicPartition(topic, p));
            }
            consumer.assign(tps);
            consumer.seekToBeginning(tps);
            long read = 0;
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
            while (read < records) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("read " + read + " of " + records + " records of " + topic
                            + " within 5 minutes");
                }
                read += consumer.poll(Duration.ofMillis(200)).count();
            }
        }
    }

    /**
     * Waits for the kernel to write what is still dirty in the page cache: the topic just produced, or the previous
     * system's output files. Otherwise the write-back runs during the next system's measurement, and the system that
     * happens to come first pays for it.
     */
    static void writeBackDirtyPages() {
        try {
            Process sync = new ProcessBuilder("sync").inheritIO().start();
            if (!sync.waitFor(5, TimeUnit.MINUTES) || sync.exitValue() != 0) {
                log("sync did not finish cleanly; the next run may share the disk with the kernel's write-back");
            }
        } catch (IOException e) {
            log("no sync command (%s); the next run may share the disk with the kernel's write-back", e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for sync", e);
        }
    }

    static void log(String format, Object... args) {
        System.out.println("[bench] " + String.format(Locale.ROOT, format, args));
    }
}
