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
            String westTopic = Names.unique("cli-outage-west");
            String eastTopic = Names.unique("cli-outage-east");
            west.createTopic(westTopic, 1);
            east.createTopic(eastTopic, 1);
            TestRecords.produceNumbered(west.clientProperties(Listener.PLAINTEXT), westTopic, 0, 50);
            TestRecords.produceNumbered(east.clientProperties(Listener.PLAINTEXT), eastTopic, 0, 50);
            Path file = TestDirs.newDir("merge-cli-outage").resolve("merge.yaml");
            Files.writeString(file, String.join("\n",
                    "merge:",
                    "  name: " + Names.unique("cli-outage"),
                    "  inputs: [west, east]",
                    "  order-by: timestamp",
                    "  commit-interval: 200ms",
                    "  max-wait: 5s",
                    "input:",
                    "  west:",
                    "    bootstrap-servers: " + west.bootstrapServers(),
                    "    topic: " + westTopic,
                    "  east:",
                    "    bootstrap-servers: " + east.bootstrapServers(),
                    "    topic: " + eastTopic,
                    "target:",
                    "  bootstrap-servers: " + target.bootstrapServers(),
                    "  topic: " + Names.unique("cli-outage-out"),
                    ""));
            ChildProcess merge = ChildJvm.builder("sluice-merge-outage")
                    .classpathOfThisJvm()
                    .jvmOptions(List.of("-Xmx256m", "-XX:+UseSerialGC"))
                    .mainClass(Main.class.getName())
                    .args("merge", file.toString(), "--progress-every", "1s")
                    .workDir(file.getParent())
                    .build()
                    .start();
            merge.awaitLogLine(l -> l.contains(" claimed, from "), Duration.ofSeconds(60));

            west.node(1).stop();
            // said once max-wait (5 s here) has passed without an answer; the count is of the reader's looks
            merge.awaitLogLine(l -> l.contains("no answer from input 'west' (" + west.bootstrapServers() + ") for ")
                    && l.contains("up to max-wait (5 s)"), Duration.ofSeconds(45));
            merge.awaitLogLine(l -> l.contains("no answer from input west for"), Duration.ofSeconds(10)); // its line
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
            awaitVerified(file);
            int status = merge.stop(Duration.ofSeconds(60));
            String log = Files.readString(merge.logFile(), StandardCharsets.UTF_8);
            assertEquals(ExitStatus.OK, status, log);
            assertTrue(log.contains("stopped cleanly: "), log);
        }
    }

    /** Until {@code verify} finds the 200 input records in the output once each, in merge order. */
    private static void awaitVerified(Path file) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        Cli.Result verify = Cli.run("verify", file.toString());
        while (!(verify.status() == ExitStatus.OK && verify.out().contains("200 input records checked"))) {
            assertTrue(System.nanoTime() < deadline, "verify after 90 s: " + verify.out() + verify.err());
            Thread.sleep(500);
            verify = Cli.run("verify", file.toString());
        }
    }
}
