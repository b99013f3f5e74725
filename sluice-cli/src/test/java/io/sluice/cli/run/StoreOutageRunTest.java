package io.sluice.cli.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cli.Cli;
import io.sluice.cli.CliChild;
import io.sluice.cli.EngineTestSupport;
import io.sluice.cli.ExitStatus;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import io.sluice.testkit.TestDirs;
import io.sluice.testkit.hdfs.HdfsServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * An HDFS that stopped answering stopped {@code sluice run} at the first write that failed (exit 1, after a few lines
 * of the Hadoop client's about a block; a new user's run), where an S3 outage is ridden out. Now the run starts its
 * engine again from the last commit, pausing longer each time while HDFS stays away, and goes on once it is back:
 * every offset exactly once.
 */
class StoreOutageRunTest {

    private final KafkaCluster kafka = SharedKafka.cluster();

    /** What goes away: the whole HDFS, or its one DataNode alone (as in its restart; the NameNode answers). */
    enum Away {
        HDFS, DATANODE;

        void stop(HdfsServer hdfs) {
            if (this == HDFS) {
                hdfs.stop();
            } else {
                hdfs.stopDataNode();
            }
        }

        void start(HdfsServer hdfs) {
            if (this == HDFS) {
                hdfs.start();
            } else {
                hdfs.startDataNode();
            }
        }
    }

    /**
     * The DataNode alone away (a single DataNode's restart, or every DataNode's): writes failed with "could only be
     * written to 0 of the 1 minReplication nodes. There are 1 datanode(s) running and 1 node(s) are excluded", which
     * was read as a person's to mend (full disks), and the start again failed in its recovery with "Could not obtain
     * block", also not an outage: exit 1. Both are an outage now, for a store that took files.
     */
    @ParameterizedTest(name = "{0} away")
    @EnumSource(Away.class)
    void anHdfsOutageIsRiddenOutByStartingAgainFromTheLastCommit(Away away) throws Exception {
        String topic = Names.unique("hdfs-outage");
        kafka.createTopic(topic, 2);
        Path dir = TestDirs.newDir("hdfs-outage");
        try (HdfsServer hdfs = HdfsServer.start("hdfs-outage")) {
            Path pipeline = Files.writeString(dir.resolve("pipeline.yaml"), """
                    source:
                      bootstrap-servers: %s
                      topics: [%s]
                      group: %s
                    sink:
                      location: %s/archive/
                      format: jsonl
                      rolling:
                        max-age: 1s
                    """.formatted(kafka.bootstrapServers(), topic, Names.unique("hdfs-outage"), hdfs.uri()));
            EngineTestSupport.produceJson(kafka, topic, 100);
            try (CliChild run = CliChild.start(dir, "run", pipeline.toString(), "--progress-every", "1s")) {
                run.awaitOutput("caught up", Duration.ofSeconds(60)); // the store took files: it answers
                away.stop(hdfs);
                EngineTestSupport.produceJson(kafka, topic, 100);
                run.awaitOutput("starting the archive again in 5 s", Duration.ofSeconds(90));
                // the start after it fails too while HDFS is away, and waits longer
                run.awaitOutput("starting the archive again in 10 s", Duration.ofSeconds(90));
                away.start(hdfs);
                EngineTestSupport.produceJson(kafka, topic, 100);
                int restarted = run.output().lastIndexOf("starting the archive again");
                awaitAfter(run, restarted, "caught up", Duration.ofSeconds(120));
                run.terminate();
                assertEquals(ExitStatus.OK, run.exitStatus(Duration.ofSeconds(60)), run.output());
                String output = run.output();
                // said in words: Hadoop's own ("Call From ... failed on connection exception: ...; For more details
                // see: http://wiki.apache.org/hadoop/ConnectionRefused") only as the network's word for it
                assertTrue(output.contains("the store does not answer (") && output.contains("): it is down, "
                        + "unreachable or starting up"), output);
                assertFalse(output.contains("For more details see") || output.contains("native-hadoop"), output);
                // each stop in the outage is said as one (a temporary file's write said "Self-suppression not
                // permitted", the JVM's words for a close that threw the write's exception again)
                output.lines().filter(l -> l.contains("stopped with an error")).forEach(l -> assertTrue(
                        l.contains("the store does not answer (") && !l.contains("Self-suppression"), l));
                // the stop line counts the command's files and starts (the last engine's alone hid the outage), and
                // the last start's records: the 100 committed before the outage are not done again
                assertTrue(output.matches("(?s).*stopped cleanly: 200 records done since the last of [3-9] starts, "
                        + "[0-9]+ files? published.*"), output);
            }
            Cli.Result verify = Cli.run("verify", pipeline.toString());
            assertEquals(ExitStatus.OK, verify.status(), verify.out() + verify.err());
            assertTrue(verify.out().contains("300 offsets"), verify.out());
        }
    }

    /**
     * A store that never took a file is not waited for: a mistyped address (here a port nobody listens on) looks like
     * an outage, and starting again would never end. The run stops, exit 1, in the store's words.
     */
    @Test
    void aStoreThatNeverAnsweredStopsTheRunInsteadOfStartingAgain() throws Exception {
        String topic = Names.unique("hdfs-nobody");
        kafka.createTopic(topic, 1);
        Path dir = TestDirs.newDir("hdfs-nobody");
        int nobody;
        try (java.net.ServerSocket free = new java.net.ServerSocket(0)) {
            nobody = free.getLocalPort();
        }
        Path pipeline = Files.writeString(dir.resolve("pipeline.yaml"), """
                source:
                  bootstrap-servers: %s
                  topics: [%s]
                  group: %s
                sink:
                  location: hdfs://127.0.0.1:%d/archive/
                  format: jsonl
                """.formatted(kafka.bootstrapServers(), topic, Names.unique("hdfs-nobody"), nobody));
        EngineTestSupport.produceJson(kafka, topic, 10);
        try (CliChild run = CliChild.start(dir, "run", pipeline.toString())) {
            assertEquals(ExitStatus.FAILURE, run.exitStatus(Duration.ofSeconds(90)), run.output());
            assertTrue(run.output().contains("the store does not answer (connection refused)"), run.output());
            assertFalse(run.output().contains("starting the archive again"), run.output());
        }
    }

    private static void awaitAfter(CliChild child, int from, String text, Duration timeout) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        while (!child.output().substring(from).contains(text)) {
            assertTrue(System.nanoTime() < end, "no '" + text + "' within " + timeout + ":\n" + child.output());
            Thread.sleep(100);
        }
    }
}
