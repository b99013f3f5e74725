package io.sluice.cli.merge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cli.ExitStatus;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.local.process.ChildProcess;
import io.sluice.testkit.SharedKafka;
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
            String westTopic = OutageMerges.topicOf50(west, "cli-outage-west");
            String eastTopic = OutageMerges.topicOf50(east, "cli-outage-east");
            Path file = OutageMerges.mergeFile("merge-cli-outage", List.of(), west, westTopic, east, eastTopic,
                    target, OutageMerges.REQUEST_TIMEOUT);
            ChildProcess merge = OutageMerges.start(file);
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
                    + ") for 3 s while records wait to be written"), Duration.ofSeconds(60));
            merge.awaitLogLine(l -> l.contains("no answer from the target cluster for"), Duration.ofSeconds(10));
            target.node(1).start();
            merge.awaitLogLine(l -> l.contains("the target cluster (" + target.bootstrapServers() + ") answers again"),
                    Duration.ofSeconds(60));

            TestRecords.produceNumbered(west.clientProperties(Listener.PLAINTEXT), westTopic, 50, 50);
            OutageMerges.awaitVerified(file, 200);
            int status = merge.stop(Duration.ofSeconds(60));
            String log = Files.readString(merge.logFile(), StandardCharsets.UTF_8);
            assertEquals(ExitStatus.OK, status, log);
            assertTrue(log.contains("stopped cleanly: "), log);
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
            String westTopic = OutageMerges.topicOf50(west, "cli-stop-west");
            String eastTopic = OutageMerges.topicOf50(east, "cli-stop-east");
            // the stopped merge could not leave the owners group of a cluster that was down: the next start claims
            // the partition once that member's session is over
            Path file = OutageMerges.mergeFile("merge-cli-stop", List.of("  session-timeout: 6s"), west, westTopic,
                    east, eastTopic, target, OutageMerges.REQUEST_TIMEOUT);
            ChildProcess merge = OutageMerges.start(file);
            merge.awaitLogLine(l -> l.contains(" claimed, from "), Duration.ofSeconds(60));
            OutageMerges.awaitVerified(file, 100);
            target.node(1).stop();
            TestRecords.produceNumbered(east.clientProperties(Listener.PLAINTEXT), eastTopic, 50, 50);
            TestRecords.produceNumbered(west.clientProperties(Listener.PLAINTEXT), westTopic, 50, 50);
            merge.awaitLogLine(l -> l.contains("no answer from the target cluster (" + target.bootstrapServers()
                    + ") for 3 s while records wait to be written"), Duration.ofSeconds(60));
            long asked = System.nanoTime();
            int status = merge.stop(Duration.ofSeconds(120));
            Duration took = Duration.ofNanos(System.nanoTime() - asked);
            String log = Files.readString(merge.logFile(), StandardCharsets.UTF_8);
            assertEquals(ExitStatus.OK, status, log);
            assertTrue(took.compareTo(Duration.ofSeconds(10)) < 0, "stopped at once, not after " + took + ": " + log);
            assertTrue(log.contains("stopped without the last commits (the target cluster (" + target.bootstrapServers()
                    + ") has not answered for "), log);

            target.node(1).start();
            ChildProcess next = OutageMerges.start(file);
            OutageMerges.awaitVerified(file, 200);
            assertEquals(ExitStatus.OK, next.stop(Duration.ofSeconds(60)));
        }
    }
}
