package io.sluice.cli.produce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cli.Cli;
import io.sluice.cli.ExitStatus;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.testkit.Names;
import io.sluice.testkit.TestDirs;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code sluice produce} while the broker fails under it: a network cut longer than the delivery timeout (the records
 * caught in it are reported with their lines, exit status 3) and a broker killed with kill -9 and restarted (every
 * line arrives once). What the journal calls acknowledged is always in the topic.
 */
class ProduceFaultsTest {

    private static KafkaCluster kafka;

    @BeforeAll
    static void start() {
        kafka = KafkaCluster.builder().name("produce-faults").proxied().start();
    }

    @AfterAll
    static void stop() {
        if (kafka != null) {
            kafka.close();
        }
    }

    @Test
    void aCutLongerThanTheDeliveryTimeoutFailsTheRecordsInItWithTheirLinesAndExitsThree() throws Exception {
        Producing producing = new Producing("produce-cut", 1, 2_000, "-X", "delivery.timeout.ms=3000", "-X",
                "request.timeout.ms=1000", "-X", "max.block.ms=2000");
        awaitEndOffset(producing.topic, 1_000);
        kafka.node(1).proxy().cut();
        Thread.sleep(4_500);
        kafka.node(1).proxy().restore();
        Cli.Result result = producing.run.get(90, TimeUnit.SECONDS);

        assertEquals(ExitStatus.SOME_RECORDS_FAILED, result.status(), result.err());
        ProducedRecords.Counts counts = ProducedRecords.counts(result.err());
        assertEquals(producing.lines.size(), counts.read(), result.err());
        assertTrue(counts.failed() > 0 && counts.acknowledged() > 1_000, result.err());
        assertEquals(0, counts.unknown(), result.err());
        assertTrue(result.err().matches("(?s).*first failures:\\s+\\S*in\\.txt:\\d+: timeout: .*"),
                result.err());
        assertJournalMatchesTheTopic(producing.journal, producing.topic, counts);
    }

    @Test
    void aBrokerKilledAndRestartedWhileProducingLosesNothingAndDuplicatesNothing() throws Exception {
        Producing producing = new Producing("produce-kill9", 2, 3_000);
        awaitEndOffset(producing.topic, 1_000);
        kafka.node(1).kill();
        kafka.node(1).start();
        Cli.Result result = producing.run.get(120, TimeUnit.SECONDS);

        assertEquals(ExitStatus.OK, result.status(), result.err());
        List<String> lines = producing.lines;
        assertEquals(new ProducedRecords.Counts(lines.size(), lines.size(), 0, 0), ProducedRecords.counts(result.err()));
        List<String> values = ProducedRecords.values(kafka, producing.topic);
        assertEquals(lines.size(), values.size(), "none lost, none twice");
        assertEquals(new HashSet<>(lines), new HashSet<>(values));
        assertJournalMatchesTheTopic(producing.journal, producing.topic, ProducedRecords.counts(result.err()));
    }

    /** 8,000 lines of a file produced to a new topic, with a journal, at a rate, in the background. */
    private static final class Producing {
        final String topic;
        final List<String> lines;
        final Path journal;
        final CompletableFuture<Cli.Result> run;

        Producing(String name, int partitions, int rate, String... extra) throws Exception {
            topic = Names.unique(name);
            kafka.createTopic(topic, partitions);
            Path dir = TestDirs.newDir(name);
            lines = ProducedRecords.writeLines(dir.resolve("in.txt"), name, 8_000);
            journal = dir.resolve("journal.tsv");
            List<String> args = new java.util.ArrayList<>(List.of("produce", "-b", kafka.bootstrapServers(), "-t",
                    topic, "--rate", Integer.toString(rate), "--journal", journal.toString()));
            args.addAll(List.of(extra));
            args.add(dir.resolve("in.txt").toString());
            run = CompletableFuture.supplyAsync(() -> Cli.run(args.toArray(String[]::new)));
        }
    }

    /**
     * Every line the journal calls acknowledged is in the topic, once, at the partition and offset it names; a line
     * in the topic that the journal calls failed can only be one whose request timed out (its outcome is unknown to
     * any producer: the broker may have written it before the cut).
     */
    private static void assertJournalMatchesTheTopic(Path journal, String topic, ProducedRecords.Counts counts)
            throws Exception {
        Map<String, String> outcomes = ProducedRecords.journal(journal);
        assertEquals(counts.read(), outcomes.size(), "one journal line per record read");
        Map<String, String> where = new java.util.HashMap<>();
        for (var r : ProducedRecords.read(kafka, topic)) {
            String value = new String(r.value(), java.nio.charset.StandardCharsets.UTF_8);
            String line = "in.txt:" + (Integer.parseInt(value.substring(value.lastIndexOf('-') + 1)) + 1);
            assertTrue(where.put(line, "ok " + r.partition() + "@" + r.offset()) == null, "twice: " + line);
        }
        long acknowledged = 0;
        for (Map.Entry<String, String> e : outcomes.entrySet()) {
            String line = e.getKey().substring(e.getKey().lastIndexOf('/') + 1);
            if (e.getValue().startsWith("ok ")) {
                acknowledged++;
                assertEquals(e.getValue(), where.get(line), "acknowledged, so in the topic where the journal says");
            } else if (where.containsKey(line)) {
                assertTrue(e.getValue().contains("failed timeout: "), line + " is in the topic but " + e.getValue());
            }
        }
        assertEquals(counts.acknowledged(), acknowledged);
    }

    private static void awaitEndOffset(String topic, long records) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            Set<TopicPartition> partitions = new HashSet<>();
            kafka.admin().describeTopics(List.of(topic)).allTopicNames().get(10, TimeUnit.SECONDS).get(topic)
                    .partitions().forEach(p -> partitions.add(new TopicPartition(topic, p.partition())));
            Map<TopicPartition, OffsetSpec> latest = new java.util.HashMap<>();
            partitions.forEach(tp -> latest.put(tp, OffsetSpec.latest()));
            long end = kafka.admin().listOffsets(latest).all().get(10, TimeUnit.SECONDS).values().stream()
                    .mapToLong(o -> o.offset()).sum();
            if (end >= records) {
                return;
            }
            assertTrue(System.nanoTime() < deadline, "only " + end + " records arrived");
            Thread.sleep(50);
        }
    }
}
