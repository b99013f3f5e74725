package io.sluice.bench;

import io.sluice.bench.systems.SystemMain;
import io.sluice.testkit.Names;
import io.sluice.testkit.TestDirs;
import io.sluice.testkit.kafka.KafkaCluster;
import io.sluice.testkit.kafka.Listener;
import io.sluice.testkit.process.ChildJvm;
import io.sluice.testkit.process.ChildProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * {@code bench/run [--smoke] [--rounds N] <scenario>}: starts a real broker, writes the scenario's data once, warms the
 * broker up, then runs every system in a JVM of its own, interleaved round after round (the order rotates), and
 * reports the median and spread of each, ending with one JSON line.
 */
public final class BenchMain {

    /** Every system's JVM gets the same heap and collector. */
    static final List<String> SYSTEM_JVM = List.of("-Xms1g", "-Xmx1g", "-XX:+UseG1GC");
    static final List<String> BROKER_JVM = List.of("-Xms1g", "-Xmx1g", "-XX:+UseG1GC");

    private BenchMain() {
    }

    public static void main(String[] args) throws Exception {
        boolean smoke = false;
        int rounds = -1;
        String name = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--smoke" -> smoke = true;
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                default -> name = args[i];
            }
        }
        if (name == null) {
            System.err.println("usage: bench/run [--smoke] [--rounds N] <engine-cpu|engine-io|testkit-startup>");
            System.exit(2);
        }
        if ("testkit-startup".equals(name)) {
            TestKitStartup.main(args);
            return;
        }
        if (rounds < 0) {
            rounds = smoke ? 1 : 3;
        }
        Scenario scenario = Scenario.named(name, smoke);
        String json = run(scenario, rounds, smoke);
        System.out.println(json);
        System.exit(0);
    }

    static String run(Scenario scenario, int rounds, boolean smoke) throws Exception {
        try (KafkaCluster kafka = KafkaCluster.builder().name("bench-kafka").jvmOptions(BROKER_JVM).start()) {
            String topic = Names.unique(scenario.name());
            kafka.createTopic(topic, scenario.partitions());
            long start = System.nanoTime();
            BenchData.produce(kafka.clientProperties(Listener.PLAINTEXT), topic, scenario);
            log("wrote %,d records in %.1f s", scenario.records(), (System.nanoTime() - start) / 1e9);
            warmUp(kafka, topic, scenario);

            Report report = new Report(scenario);
            List<String> order = new ArrayList<>(scenario.systems());
            Path dir = TestDirs.newDir("bench-runs");
            for (int round = 1; round <= rounds; round++) {
                for (String system : order) {
                    warmUp(kafka, topic, scenario); // the page cache goes cold within a minute on this machine
                    double[] result = runSystem(system, kafka, topic, scenario, smoke, dir);
                    report.add(system, result[0], result[1] > 0);
                    log("round %d %-18s %,12.0f records/s", round, system, result[0]);
                }
                Collections.rotate(order, 1);
            }
            System.out.print(report.table());
            return report.json();
        }
    }

    private static double[] runSystem(String system, KafkaCluster kafka, String topic, Scenario scenario, boolean smoke,
            Path dir) {
        ChildProcess child = ChildJvm.builder(system)
                .classpathOfThisJvm()
                .jvmOptions(SYSTEM_JVM)
                .systemProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn")
                .mainClass(SystemMain.class.getName())
                .args(system, kafka.bootstrapServers(), topic, scenario.name(), Boolean.toString(smoke))
                .workDir(dir)
                .build()
                .start();
        String line = child.awaitLogLine(l -> l.startsWith("RESULT "), Duration.ofMinutes(30));
        child.waitForExit();
        String[] f = line.split(" ");
        long records = Long.parseLong(f[1]);
        double seconds = Double.parseDouble(f[2]);
        return new double[] {records / seconds, Boolean.parseBoolean(f[3]) ? 1 : 0};
    }

    /** Reads the whole topic once, untimed: a cold broker halves the first reader's throughput. */
    private static void warmUp(KafkaCluster kafka, String topic, Scenario scenario) {
        Map<String, Object> props = new HashMap<>(kafka.clientProperties(Listener.PLAINTEXT));
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        try (var consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> tps = new ArrayList<>();
            for (int p = 0; p < scenario.partitions(); p++) {
                tps.add(new TopicPartition(topic, p));
            }
            consumer.assign(tps);
            consumer.seekToBeginning(tps);
            long read = 0;
            while (read < scenario.records()) {
                read += consumer.poll(Duration.ofMillis(200)).count();
            }
        }
    }

    private static void log(String format, Object... args) {
        System.out.println("[bench] " + String.format(Locale.ROOT, format, args));
    }
}
