package io.sluice.cli.merge;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cli.Cli;
import io.sluice.cli.ExitStatus;
import io.sluice.cli.Main;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.local.process.ChildJvm;
import io.sluice.local.process.ChildProcess;
import io.sluice.testkit.Names;
import io.sluice.testkit.TestDirs;
import io.sluice.testkit.kafka.TestRecords;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * What the outage tests of the merge command share: a topic of 50 records in a cluster, a merge file of two inputs
 * into a target of the test's own, the command started in a JVM of its own, and verify awaited until it finds the
 * records.
 */
final class OutageMerges {

    private OutageMerges() {
    }

    /** A new topic of one partition in {@code cluster}, with 50 numbered records. */
    static String topicOf50(KafkaCluster cluster, String name) {
        String topic = Names.unique(name);
        cluster.createTopic(topic, 1);
        TestRecords.produceNumbered(cluster.clientProperties(Listener.PLAINTEXT), topic, 0, 50);
        return topic;
    }

    /**
     * The target section's lines that set the producers' request timeout to 3 s: the target's silence is then said
     * after 3 s ({@code TargetReach.grace}), so that the tests do not wait 15 s for it.
     */
    static final String[] REQUEST_TIMEOUT = {"  properties:", "    request.timeout.ms: 3000"};

    /**
     * A merge file of the two inputs' topics into a new topic of {@code target}, with {@code mergeLines} and
     * {@code targetLines} in those sections.
     */
    static Path mergeFile(String name, List<String> mergeLines, KafkaCluster west, String westTopic, KafkaCluster east,
            String eastTopic, KafkaCluster target, String... targetLines) throws java.io.IOException {
        List<String> lines = new java.util.ArrayList<>(List.of(
                "merge:",
                "  name: " + Names.unique(name),
                "  inputs: [west, east]",
                "  order-by: timestamp",
                "  commit-interval: 200ms",
                "  max-wait: 5s"));
        lines.addAll(mergeLines);
        lines.addAll(List.of(
                "input:",
                "  west:",
                "    bootstrap-servers: " + west.bootstrapServers(),
                "    topic: " + westTopic,
                "  east:",
                "    bootstrap-servers: " + east.bootstrapServers(),
                "    topic: " + eastTopic,
                "target:",
                "  bootstrap-servers: " + target.bootstrapServers(),
                "  topic: " + Names.unique(name + "-out")));
        lines.addAll(List.of(targetLines));
        lines.add("");
        Path file = TestDirs.newDir(name).resolve("merge.yaml");
        return Files.writeString(file, String.join("\n", lines));
    }

    static ChildProcess start(Path file) {
        return ChildJvm.builder("sluice-merge-outage")
                .classpathOfThisJvm()
                .jvmOptions(List.of("-Xmx256m", "-XX:+UseSerialGC"))
                .mainClass(Main.class.getName())
                .args("merge", file.toString(), "--progress-every", "1s")
                .workDir(file.getParent())
                .build()
                .start();
    }

    /** Until {@code verify} finds {@code records} input records in the output once each, in merge order. */
    static void awaitVerified(Path file, int records) throws InterruptedException {
        // a merge started again after a failure waits for its start (each try up to 30 s while a cluster is away),
        // its claim and its session: on two shared cores, minutes rather than seconds
        long deadline = System.nanoTime() + Duration.ofSeconds(150).toNanos();
        Cli.Result verify = Cli.run("verify", file.toString());
        while (!(verify.status() == ExitStatus.OK && verify.out().contains(records + " input records checked"))) {
            assertTrue(System.nanoTime() < deadline, "verify after 150 s: " + verify.out() + verify.err());
            Thread.sleep(500);
            verify = Cli.run("verify", file.toString());
        }
    }
}
