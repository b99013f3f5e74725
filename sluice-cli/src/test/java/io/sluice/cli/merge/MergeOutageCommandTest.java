package io.sluice.cli.merge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cli.Cli;
import io.sluice.cli.ExitStatus;
import io.sluice.cli.Main;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.local.process.ChildJvm;
import io.sluice.local.process.ChildProcess;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import io.sluice.testkit.TestDirs;
import io.sluice.testkit.kafka.TestRecords;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code sluice merge} while an input's cluster, then the output cluster, does not answer: the command says which, in
 * the log and on its line, and again when it answers; every record lands once. The output's silence was never said by
 * the command: its line read the lag from the clusters on the same thread, each reading waiting seconds on the one
 * that was down, and the watch took those gaps for the process not running.
 */
@Tag("slow")
class MergeOutageCommandTest {

    @Test
    void anInputOrTheOutputThatDoesNotAnswerIsSaidByNameAndWhenItAnswersAgain() throws Exception {
        KafkaCluster east = SharedKafka.second();
        try (KafkaCluster west = KafkaCluster.builder().name("merge-cli-west").start();
                KafkaCluster target = KafkaCluster.builder().name("merge-cli-target").start()) {
            String westTopic = topicOf50(west, "cli-outage-west");
            String eastTopic = topicOf50(east, "cli-outage-east");
            Path file = mergeFile("merge-cli-outage", List.of(), west, westTopic, east, eastTopic, target);
            ChildProcess merge = start(file);
            merge.awaitLogLine(l -> l.contains(" claimed, from "), Duration.ofSeconds(60));

            west.node(1).stop();
            // said once max-wait (5 s here) has passed without an answer; the count is of the reader's looks
            merge.awaitLogLine(l -> l.contains("no answer from input 'west' (" + west.bootstrapServers() + ") for ")
                    && l.contains("up to max-wait (5 s)"), Duration.ofSeconds(45));
            merge.awaitLogLine(l -> l.contains("no answer from input west for"), Duration.ofSeconds(10)); // its line
            // the line keeps east's lag and says west's is unknown (every input's lag went blank with one input down)
            merge.awaitLogLine(l -> l.contains("no answer from input west for") && l.contains("behind: west 0 and ")
                    && l.contains(" unknown, east "), Duration.ofSeconds(30));
            west.node(1).start();
            merge.awaitLogLine(l -> l.contains("input 'west' (" + west.bootstrapServers() + ") answers again"),
                    Duration.ofSeconds(60));

            target.node(1).stop();
            TestRecords.produceNumbered(east.clientProperties(Listener.PLAINTEXT), eastTopic, 50, 50);
            merge.awaitLogLine(l -> l.contains("no answer from the target cluster (" + target.bootstrapServers()
                    + ") for 15 s while records wait to be written"), Duration.ofSeconds(60));
            merge.awaitLogLine(l -> l.contains("no answer from the target cluster for"), Duration.ofSeconds(10));
            target.node(1).start();
            merge.awaitLogLine(l -> l.contains("the target cluster (" + target.bootstrapServers() + ") answers again"),
                    Duration.ofSeconds(60));

            TestRecords.produceNumbered(west.clientProperties(Listener.PLAINTEXT), westTopic, 50, 50);
            awaitVerified(file, 200);
            int status = merge.stop(Duration.ofSeconds(60));
            String log = Files.readString(merge.logFile(), StandardCharsets.UTF_8);
            assertEquals(ExitStatus.OK, status, log);
            assertTrue(log.contains("stopped cleanly: "), log);
        }
    }

    /**
     * An output cluster down for longer than the merge's producers wait failed the merge (exit 1) even once it was
     * back. Now the command starts the merge again, and again while the cluster stays down, and goes on from the
     * committed positions when it answers: every record once, the stop line counting every start's records. The
     * producers' waits are lowered to a few seconds, so that a short outage outlasts them.
     */
    @Test
    void anOutputClusterDownLongerThanTheProducersWaitIsRiddenOutByStartingTheMergeAgain() throws Exception {
        KafkaCluster east = SharedKafka.second();
        KafkaCluster west = SharedKafka.cluster();
        try (KafkaCluster target = KafkaCluster.builder().name("merge-cli-restart").start()) {
            String westTopic = topicOf50(west, "cli-restart-west");
            String eastTopic = topicOf50(east, "cli-restart-east");
            // the merge that failed could not leave the owners group of a cluster that was down: the next one claims
            // the partition once that member's session is over
            Path file = mergeFile("merge-cli-restart", List.of("  session-timeout: 6s"), west, westTopic, east,
                    eastTopic, target,
                    "  properties:",
                    "    max.block.ms: 3000",
                    "    request.timeout.ms: 1000",
                    "    delivery.timeout.ms: 3000",
                    "    transaction.timeout.ms: 5000");
            ChildProcess merge = start(file);
            merge.awaitLogLine(l -> l.contains(" claimed, from "), Duration.ofSeconds(60));
            awaitVerified(file, 100);

            target.node(1).stop();
            TestRecords.produceNumbered(east.clientProperties(Listener.PLAINTEXT), eastTopic, 50, 50);
            TestRecords.produceNumbered(west.clientProperties(Listener.PLAINTEXT), westTopic, 50, 50);
            // the merge fails once its producer gives up, and the start after it fails too while the target is down
            merge.awaitLogLine(l -> l.contains("starting again from the committed positions"), Duration.ofSeconds(120));
            merge.awaitLogLine(l -> l.contains("starting the merge again in 5 s (Ctrl-C stops it)"),
                    Duration.ofSeconds(10));
            merge.awaitLogLine(l -> l.contains("the merge could not start again"), Duration.ofSeconds(90));
            target.node(1).start();

            awaitVerified(file, 200);
            int status = merge.stop(Duration.ofSeconds(60));
            String log = Files.readString(merge.logFile(), StandardCharsets.UTF_8);
            assertEquals(ExitStatus.OK, status, log);
            // the whole command's records, each once: those of the transaction the failure aborted are not counted
            assertTrue(log.contains("stopped cleanly: 200 records merged"), log);
        }
    }

    /**
     * A stop (SIGTERM) while the output cluster does not answer waited 51 s for the last commits, and then said it
     * stopped cleanly. Now, once the output has not answered for 15 s, the stop lets the last commits go at once,
     * says so, exits 0, and the next start merges what was left: every record once.
     */
    @Test
    void aStopWhileTheOutputDoesNotAnswerIsAtOnceAndTheNextStartMergesWhatWasLeft() throws Exception {
        KafkaCluster east = SharedKafka.second();
        KafkaCluster west = SharedKafka.cluster();
        try (KafkaCluster target = KafkaCluster.builder().name("merge-cli-stop-outage").start()) {
            String westTopic = topicOf50(west, "cli-stop-west");
            String eastTopic = topicOf50(east, "cli-stop-east");
            // the stopped merge could not leave the owners group of a cluster that was down: the next start claims
            // the partition once that member's session is over
            Path file = mergeFile("merge-cli-stop", List.of("  session-timeout: 6s"), west, westTopic, east,
                    eastTopic, target);
            ChildProcess merge = start(file);
            merge.awaitLogLine(l -> l.contains(" claimed, from "), Duration.ofSeconds(60));
            awaitVerified(file, 100);
            target.node(1).stop();
            TestRecords.produceNumbered(east.clientProperties(Listener.PLAINTEXT), eastTopic, 50, 50);
            TestRecords.produceNumbered(west.clientProperties(Listener.PLAINTEXT), westTopic, 50, 50);
            merge.awaitLogLine(l -> l.contains("no answer from the target cluster (" + target.bootstrapServers()
                    + ") for 15 s while records wait to be written"), Duration.ofSeconds(60));
            long asked = System.nanoTime();
            int status = merge.stop(Duration.ofSeconds(120));
            Duration took = Duration.ofNanos(System.nanoTime() - asked);
            String log = Files.readString(merge.logFile(), StandardCharsets.UTF_8);
            assertEquals(ExitStatus.OK, status, log);
            assertTrue(took.compareTo(Duration.ofSeconds(10)) < 0, "stopped at once, not after " + took + ": " + log);
            assertTrue(log.contains("stopped without the last commits (the target cluster (" + target.bootstrapServers()
                    + ") has not answered for "), log);

            target.node(1).start();
            ChildProcess next = start(file);
            awaitVerified(file, 200);
            assertEquals(ExitStatus.OK, next.stop(Duration.ofSeconds(60)));
        }
    }

    /** A new topic of one partition in {@code cluster}, with 50 numbered records. */
    private static String topicOf50(KafkaCluster cluster, String name) {
        String topic = Names.unique(name);
        cluster.createTopic(topic, 1);
        TestRecords.produceNumbered(cluster.clientProperties(Listener.PLAINTEXT), topic, 0, 50);
        return topic;
    }

    /**
     * A merge file of the two inputs' topics into a new topic of {@code target}, with {@code mergeLines} and
     * {@code targetLines} in those sections.
     */
    private static Path mergeFile(String name, List<String> mergeLines, KafkaCluster west, String westTopic, KafkaCluster east,
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

    private static ChildProcess start(Path file) {
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
    private static void awaitVerified(Path file, int records) throws InterruptedException {
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
