package io.sluice.cli.produce;

import io.sluice.cli.CliChild;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cli.ExitStatus;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.testkit.Names;
import io.sluice.testkit.TestDirs;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The drain after a signal, when the brokers cannot answer it: the network to them stops passing anything (a black
 * hole) or is cut, then a pipe is stopped with SIGTERM. The drain ends at its deadline and the records without an
 * answer are reported as such (exit status 3), or a second signal ends it at once (exit status 130). Either way
 * nothing acknowledged is called failed, and what is called acknowledged is in the topic.
 *
 * <p>Records surely without an answer: after the black hole begins, the test writes {@value #AFTER_CUT} lines (about
 * 3 MB) to the command's standard input. A pipe holds 64 KiB, so when the write returns the command has read and sent
 * all but its buffers' worth of them, and none can have an answer. (A black hole rather than a cut: after a cut the
 * producer soon goes back to its bootstrap servers, forgets the topic and blocks in {@code send}; the last test is
 * about that.)
 */
class ProduceDrainTest {

    private static final int BEFORE_CUT = 1_000;
    private static final int AFTER_CUT = 250_000;

    private static KafkaCluster kafka;

    @BeforeAll
    static void start() {
        kafka = KafkaCluster.builder().name("produce-drain").proxied().start();
    }

    @AfterAll
    static void stop() {
        if (kafka != null) {
            kafka.close();
        }
    }

    @AfterEach
    void restore() {
        kafka.node(1).proxy().restore();
    }

    @Test
    void brokersUnreachableAtShutdownEndTheDrainAtItsDeadlineAndTheRecordsWithoutAnAnswerAreReported()
            throws Exception {
        String topic = Names.unique("produce-deadline");
        kafka.createTopic(topic, 2);
        Path dir = TestDirs.newDir("produce-deadline");
        Path journal = dir.resolve("journal.tsv");
        try (CliChild child = CliChild.start(dir, "produce", "-b", kafka.bootstrapServers(), "-t", topic,
                "--drain-timeout", "3s", "--journal", journal.toString())) {
            blackholeWithRecordsInFlight(child, topic);
            long signalled = System.nanoTime();
            child.terminate();
            int status = child.exitStatus(Duration.ofSeconds(60));
            Duration drained = Duration.ofNanos(System.nanoTime() - signalled);
            String output = child.output();

            assertEquals(ExitStatus.SOME_RECORDS_FAILED, status, output);
            assertTrue(drained.compareTo(Duration.ofSeconds(3)) >= 0, "the drain waits for its deadline: " + drained);
            // the producer's own delivery timeout (120 s by default) would fail them much later
            assertTrue(drained.compareTo(Duration.ofSeconds(40)) < 0, "the drain ends at its deadline: " + drained);
            ProducedRecords.Counts counts = ProducedRecords.counts(output);
            assertEquals(0, counts.failed(), "no answer is not a failure: " + output);
            assertTrue(counts.unknown() > 0, output);
            assertEquals(counts.read(), counts.acknowledged() + counts.unknown(), output);
            assertTrue(output.contains(String.format("%,d records had no answer when the drain timeout passed: they "
                    + "may or may not be in the topic", counts.unknown())), output);
            assertTrue(output.contains("stopped by a signal: the rest of the input was not read"), output);

            kafka.node(1).proxy().restore();
            Map<String, String> outcomes = ProducedRecords.journal(journal);
            assertEquals(counts.read(), outcomes.size(), "one journal line per record read");
            assertEquals(counts.unknown(), outcomes.values().stream().filter(o -> o.startsWith("unknown ")).count(),
                    "the journal calls unknown what the summary does, not failed: " + sample(outcomes));
            assertEquals(counts.acknowledged(), assertAcknowledgedAreInTheTopic(outcomes, topic));
            long inTopic = ProducedRecords.read(kafka, topic).size();
            assertTrue(inTopic >= BEFORE_CUT && inTopic <= counts.read(), inTopic + " in the topic: " + output);
        }
    }

    @Test
    void aSecondSignalDuringTheDrainStopsAtOnceWithExitStatus130AndSaysWhatHadNoAnswer() throws Exception {
        String topic = Names.unique("produce-second");
        kafka.createTopic(topic, 2);
        Path dir = TestDirs.newDir("produce-second");
        Path journal = dir.resolve("journal.tsv");
        try (CliChild child = CliChild.start(dir, "produce", "-b", kafka.bootstrapServers(), "-t", topic,
                "--drain-timeout", "5m", "--journal", journal.toString())) {
            blackholeWithRecordsInFlight(child, topic);
            child.terminate();
            child.awaitOutput("stopping (signal received)", Duration.ofSeconds(30));
            long signalled = System.nanoTime();
            child.terminate();
            int status = child.exitStatus(Duration.ofSeconds(60));
            Duration stopped = Duration.ofNanos(System.nanoTime() - signalled);
            String output = child.output();

            assertEquals(ExitStatus.INTERRUPTED, status, output);
            assertTrue(stopped.compareTo(Duration.ofSeconds(60)) < 0, "at once, not after the 5 minutes' drain");
            Matcher said = Pattern.compile("second signal: stopping at once\\. ([\\d,]+) records read, ([\\d,]+) "
                    + "acknowledged, ([\\d,]+) failed, ([\\d,]+) without an answer yet\\. Records sent without an "
                    + "answer yet may or may not be in the topic\\.").matcher(output);
            assertTrue(said.find(), output);
            long read = number(said.group(1));
            long acknowledged = number(said.group(2));
            long unknown = number(said.group(4));
            assertEquals(0, number(said.group(3)), "nothing called failed: " + output);
            assertTrue(unknown > 0, output);
            assertEquals(read, acknowledged + unknown, output);

            kafka.node(1).proxy().restore();
            // halted: the journal keeps what it had handed to the file, which may lack its last batch
            Map<String, String> outcomes = ProducedRecords.journal(journal);
            assertTrue(outcomes.values().stream().allMatch(o -> o.startsWith("ok ")), sample(outcomes));
            assertAcknowledgedAreInTheTopic(outcomes, topic);
            long inTopic = ProducedRecords.read(kafka, topic).size();
            assertTrue(inTopic >= Math.max(BEFORE_CUT, acknowledged) && inTopic <= read,
                    inTopic + " in the topic: " + output);
        }
    }

    /**
     * A send blocked when the signal comes: after a cut the producer finds no broker, goes back to its bootstrap
     * servers (Kafka 4's metadata.recovery.strategy=rebootstrap) and so forgets the topic, and its next send waits for
     * the topic's metadata, here up to max.block.ms = 10 minutes. The drain still ends at its deadline: the command
     * does not wait for that send (it did, for max.block.ms, before the drain even began).
     */
    @Test
    void aSignalWhileASendWaitsForTheBrokersStillEndsTheDrainAtItsDeadline() throws Exception {
        String topic = Names.unique("produce-blocked");
        kafka.createTopic(topic, 2);
        Path dir = TestDirs.newDir("produce-blocked");
        try (CliChild child = CliChild.start(dir, "produce", "-b", kafka.bootstrapServers(), "-t", topic,
                "--drain-timeout", "3s", "-X", "max.block.ms=600000")) {
            child.writeLines("line", 0, BEFORE_CUT);
            awaitEndOffset(topic, BEFORE_CUT);
            kafka.node(1).proxy().cut();
            Thread writer = new Thread(() -> writeUntilClosed(child), "pipe-writer");
            writer.setDaemon(true);
            writer.start();
            // the producer has forgotten the topic: its next send, of the lines still coming, blocks
            child.awaitOutput("Bootstrap broker", Duration.ofSeconds(60));
            long signalled = System.nanoTime();
            child.terminate();
            int status = child.exitStatus(Duration.ofSeconds(60));
            Duration drained = Duration.ofNanos(System.nanoTime() - signalled);
            String output = child.output();

            assertEquals(ExitStatus.SOME_RECORDS_FAILED, status, output);
            assertTrue(drained.compareTo(Duration.ofSeconds(30)) < 0, "the drain ends at its deadline: " + drained);
            ProducedRecords.Counts counts = ProducedRecords.counts(output);
            assertEquals(0, counts.failed(), output);
            assertTrue(counts.unknown() > 0, output);
            assertEquals(counts.read(), counts.acknowledged() + counts.unknown(), output);
        }
    }

    /**
     * Lines reach the topic through the proxy, then the proxy holds all traffic and {@value #AFTER_CUT} more lines
     * are written: the command has read most of them when this returns, and none can have an answer.
     */
    private static void blackholeWithRecordsInFlight(CliChild child, String topic) throws Exception {
        child.writeLines("line", 0, BEFORE_CUT);
        awaitEndOffset(topic, BEFORE_CUT);
        kafka.node(1).proxy().blackhole();
        child.writeLines("line", BEFORE_CUT, AFTER_CUT);
    }

    private static void writeUntilClosed(CliChild child) {
        try {
            for (int from = BEFORE_CUT; ; from += 1_000) {
                child.writeLines("line", from, 1_000);
            }
        } catch (java.io.IOException e) {
            // the command exited: its end of the pipe is closed
        }
    }

    /** Every record the journal calls ok is in the topic, once, where it says; returns how many it calls ok. */
    private static long assertAcknowledgedAreInTheTopic(Map<String, String> outcomes, String topic) {
        Map<String, String> where = new HashMap<>();
        for (var r : ProducedRecords.read(kafka, topic)) {
            String value = new String(r.value(), StandardCharsets.UTF_8);
            String line = "stdin:" + (Integer.parseInt(value.substring(value.indexOf('-') + 1)) + 1);
            assertTrue(where.put(line, "ok " + r.partition() + "@" + r.offset()) == null, "twice: " + value);
        }
        long ok = 0;
        for (Map.Entry<String, String> e : outcomes.entrySet()) {
            if (e.getValue().startsWith("ok ")) {
                ok++;
                assertEquals(e.getValue(), where.get(e.getKey()), e.getKey() + " is acknowledged, so in the topic");
            }
        }
        return ok;
    }

    private static void awaitEndOffset(String topic, long records) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        Map<TopicPartition, OffsetSpec> latest = Map.of(new TopicPartition(topic, 0), OffsetSpec.latest(),
                new TopicPartition(topic, 1), OffsetSpec.latest());
        while (true) {
            long end = kafka.admin().listOffsets(latest).all().get(10, TimeUnit.SECONDS).values().stream()
                    .mapToLong(o -> o.offset()).sum();
            if (end >= records) {
                return;
            }
            assertTrue(System.nanoTime() < deadline, "only " + end + " records arrived");
            Thread.sleep(50);
        }
    }

    private static String sample(Map<String, String> outcomes) {
        return outcomes.entrySet().stream().filter(e -> !e.getValue().startsWith("ok ")).limit(3).toList().toString();
    }

    private static long number(String text) {
        return Long.parseLong(text.replace(",", ""));
    }
}
