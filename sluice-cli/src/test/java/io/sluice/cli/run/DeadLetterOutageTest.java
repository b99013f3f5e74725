package io.sluice.cli.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cli.Cli;
import io.sluice.cli.ExitStatus;
import io.sluice.core.wire.DeadLetterHeaders;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.storage.format.ArchivedFormats;
import io.sluice.local.kafka.Listener;
import io.sluice.testkit.Names;
import io.sluice.testkit.TestDirs;
import io.sluice.testkit.kafka.TestRecords;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * The dead-letter path rides out a broker restart (issue 17): the broker stops for about 20 s while a record that
 * cannot be archived waits to be dead-lettered. The consumer side waits for the broker; so must the dead letter, and
 * the run ends with every record archived or dead-lettered, exit status 0.
 */
class DeadLetterOutageTest {

    private static final int RECORDS = 36;
    private static final int BAD = 28;

    @Test
    void aRecordDeadLetteredWhileTheBrokerRestartsWaitsForItAndTheRunGoesOn() throws Exception {
        try (KafkaCluster kafka = KafkaCluster.builder().name("dlq-outage").start()) {
            String topic = Names.unique("clicks");
            String dlq = topic + "-dlq";
            kafka.createTopic(topic, 1);
            kafka.createTopic(dlq, 1);
            produceAsOneBatch(kafka, topic);
            Path dir = TestDirs.newDir("dlq-outage");
            Path archive = dir.resolve("archive");
            Path pipeline = dir.resolve("pipeline.yaml");
            // read slowly, a few records a poll: the first fetch brings the whole batch into the consumer, whose
            // later polls hand it out while the broker is down, so the bad record reaches the sink in the outage
            Files.writeString(pipeline, """
                    source:
                      bootstrap-servers: %s
                      topics: [%s]
                      group: %s
                      max-read-rate: 1KiB/s
                      properties:
                        max.poll.records: 4
                    processing:
                      commit-interval: 300ms
                      dead-letter-topic: %s
                    sink:
                      location: %s
                      template: "{topic}/kind={value.kind}/"
                      format: jsonl
                    """.formatted(kafka.bootstrapServers(), topic, Names.unique("archiver"), dlq, archive));

            CompletableFuture<Cli.Result> run = CompletableFuture.supplyAsync(() -> Cli.run("run",
                    pipeline.toString(), "--until-end", "--progress-every", "1s"));
            awaitFirstFile(archive, run);
            long stopped = System.nanoTime();
            kafka.node(1).stop();
            Thread.sleep(20_000);
            kafka.node(1).start();
            Cli.Result result = run.get(120, TimeUnit.SECONDS);

            assertEquals(ExitStatus.OK, result.status(), result.err());
            assertTrue(System.nanoTime() - stopped > Duration.ofSeconds(20).toNanos());
            assertOutageSaidInWords(result.err());
            // an exactly-once archive sends its letters in a transaction with the commit that covers them: visible
            // once the transaction's markers are written, just after the run's last commit returned
            List<ConsumerRecord<byte[], byte[]>> dead = List.of();
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (dead.isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(100);
                dead = TestRecords.readAll(kafka.clientProperties(Listener.PLAINTEXT), dlq, Duration.ofSeconds(30));
            }
            assertEquals(1, dead.size(), "the one record that has no kind");
            assertEquals(String.valueOf(BAD), new String(dead.get(0).headers().lastHeader(
                    DeadLetterHeaders.SOURCE_OFFSET).value(), StandardCharsets.UTF_8));
            List<Long> archived = archivedOffsets(archive);
            List<Long> expected = new ArrayList<>();
            for (long o = 0; o < RECORDS; o++) {
                if (o != BAD) {
                    expected.add(o);
                }
            }
            assertEquals(expected, archived, "every other record archived, once");
        }
    }

    /**
     * The outage is said once in Sluice's words, and the progress lines show no lag from before it; the clients'
     * warnings (one per retry: hundreds in 20 s) show each kind once, from "kafka", not a class. (Whether the end of
     * the outage is logged too depends on which client reconnects first: the stop's commit may be done by the
     * dead-letter producer before the consumer's heartbeat thread is back.)
     */
    private static void assertOutageSaidInWords(String err) {
        assertEquals(1, err.lines().filter(line -> line.contains("WARN  engine: no answer from the source cluster"))
                .count(), err);
        assertTrue(err.contains("no answer from the source cluster for "), "a progress line during the outage: " + err);
        // the same text again (a retry's) is what is held back; another broker's or client's is another kind
        List<String> clients = err.lines().filter(line -> line.contains(" kafka: ")).map(line -> line.substring(13))
                .toList();
        assertEquals(clients.stream().distinct().toList(), clients, "each kind of client warning once: " + err);
        assertTrue(err.lines().noneMatch(line -> line.contains("NetworkClient")), err);
    }

    /** One producer batch, so that one fetch brings every record into the consumer. */
    private static void produceAsOneBatch(KafkaCluster kafka, String topic) {
        Map<String, Object> props = new HashMap<>(kafka.clientProperties(Listener.PLAINTEXT));
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.LINGER_MS_CONFIG, 2_000);
        props.put(ProducerConfig.BATCH_SIZE_CONFIG, 1 << 20);
        String pad = "x".repeat(200);
        try (var producer = new KafkaProducer<>(props, new StringSerializer(), new StringSerializer())) {
            for (int i = 0; i < RECORDS; i++) {
                String value = i == BAD ? "{\"n\":" + i + ",\"pad\":\"" + pad + "\"}"
                        : "{\"n\":" + i + ",\"kind\":\"k" + (i % 2) + "\",\"pad\":\"" + pad + "\"}";
                producer.send(new ProducerRecord<>(topic, "k" + i, value));
            }
            producer.flush();
        }
    }

    private static void awaitFirstFile(Path archive, CompletableFuture<Cli.Result> run) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!anyFile(archive)) {
            if (run.isDone()) {
                throw new AssertionError("the run ended before writing: " + run.get().err());
            }
            assertTrue(System.nanoTime() < deadline, "no file was started within 60 s");
            Thread.sleep(20);
        }
    }

    private static boolean anyFile(Path dir) throws Exception {
        if (!Files.isDirectory(dir)) {
            return false;
        }
        try (Stream<Path> all = Files.walk(dir)) {
            return all.anyMatch(Files::isRegularFile);
        }
    }

    /** The offsets in the published files, sorted. */
    private static List<Long> archivedOffsets(Path archive) throws Exception {
        List<Long> offsets = new ArrayList<>();
        try (Stream<Path> all = Files.walk(archive)) {
            for (Path file : all.filter(Files::isRegularFile)
                    .filter(p -> !archive.relativize(p).startsWith("_sluice")).toList()) {
                ArchivedFormats.rowsOf(file.getFileName().toString()).orElseThrow()
                        .read(file, (t, partition, offset) -> offsets.add(offset));
            }
        }
        offsets.sort(null);
        return offsets;
    }
}
