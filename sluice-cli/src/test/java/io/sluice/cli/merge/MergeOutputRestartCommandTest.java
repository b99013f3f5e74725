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
 * {@code sluice merge} while the output cluster is down for longer than the merge's producers wait: the command starts
 * the merge again, and every record lands once. (Split from {@link MergeOutageCommandTest}, so that the test JVMs share
 * the outage tests' minutes evenly.)
 */
@Tag("slow")
class MergeOutputRestartCommandTest {

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
            String westTopic = OutageMerges.topicOf50(west, "cli-restart-west");
            String eastTopic = OutageMerges.topicOf50(east, "cli-restart-east");
            // the merge that failed could not leave the owners group of a cluster that was down: the next one claims
            // the partition once that member's session is over
            Path file = OutageMerges.mergeFile("merge-cli-restart", List.of("  session-timeout: 6s"), west,
                    westTopic, east, eastTopic, target,
                    "  properties:",
                    "    max.block.ms: 3000",
                    "    request.timeout.ms: 1000",
                    "    delivery.timeout.ms: 3000",
                    "    transaction.timeout.ms: 5000");
            ChildProcess merge = OutageMerges.start(file);
            merge.awaitLogLine(l -> l.contains(" claimed, from "), Duration.ofSeconds(60));
            OutageMerges.awaitVerified(file, 100);

            target.node(1).stop();
            TestRecords.produceNumbered(east.clientProperties(Listener.PLAINTEXT), eastTopic, 50, 50);
            TestRecords.produceNumbered(west.clientProperties(Listener.PLAINTEXT), westTopic, 50, 50);
            // the merge fails once its producer gives up, and the start after it fails too while the target is down
            merge.awaitLogLine(l -> l.contains("starting again from the committed positions"), Duration.ofSeconds(120));
            merge.awaitLogLine(l -> l.contains("starting the merge again in 5 s (Ctrl-C stops it)"),
                    Duration.ofSeconds(10));
            merge.awaitLogLine(l -> l.contains("the merge could not start again"), Duration.ofSeconds(90));
            target.node(1).start();

            OutageMerges.awaitVerified(file, 200);
            int status = merge.stop(Duration.ofSeconds(60));
            String log = Files.readString(merge.logFile(), StandardCharsets.UTF_8);
            assertEquals(ExitStatus.OK, status, log);
            // the whole command's records, each once: those of the transaction the failure aborted are not counted
            assertTrue(log.contains("stopped cleanly: 200 records merged"), log);
        }
    }
}
