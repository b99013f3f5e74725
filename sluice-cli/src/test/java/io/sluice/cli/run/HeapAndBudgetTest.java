package io.sluice.cli.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cli.ExitStatus;
import io.sluice.cli.Main;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.local.process.ChildJvm;
import io.sluice.local.process.ChildProcess;
import io.sluice.storage.format.ArchivedFormats;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import io.sluice.testkit.TestDirs;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * Heap and budget agree (issue 17): {@code sluice run} in a JVM of its own with a small heap either runs, its open
 * files counted against the memory budget, or is refused at start with the numbers and the fix, never dying of
 * OutOfMemoryError.
 */
class HeapAndBudgetTest {

    private static final int PARTITIONS = 4;
    private static final int FOLDERS = 64;
    private static final int RECORDS = 16_000;

    private final KafkaCluster kafka = SharedKafka.cluster();

    @Test
    void aHeapTooSmallForTheDefaultBudgetIsRefusedInWords() throws Exception {
        String topic = Names.unique("heap-small");
        kafka.createTopic(topic, 1);
        Path dir = TestDirs.newDir("heap-small");
        Path pipeline = pipeline(dir, topic, "");
        Ended run = run(dir, pipeline, "-Xmx64m");
        String log = run.log();
        assertEquals(ExitStatus.USAGE, run.status(), log);
        assertTrue(log.contains("processing.memory-budget"), log);
        assertTrue(log.contains("-Xmx"), log);
        assertFalse(log.contains("OutOfMemoryError"), log);
        assertFalse(log.contains("\tat "), "no stack trace: " + log);
        // what reads the pipeline's group, topics and storage runs no engine: the budget is not its concern
        for (String[] command : new String[][] {{"verify", pipeline.toString()},
                {"lag", pipeline.toString(), "--interval", "200ms"}}) {
            Ended read = sluice(dir, "-Xmx64m", command);
            assertFalse(read.log().contains("processing.memory-budget"), read.log());
            assertEquals(ExitStatus.OK, read.status(), command[0] + ": " + read.log());
        }
    }

    @Test
    void aSmallBudgetWithManyOpenFilesInASmallHeapDoesNotRunOutOfMemory() throws Exception {
        String topic = Names.unique("heap-files");
        kafka.createTopic(topic, PARTITIONS);
        produce(topic);
        Path dir = TestDirs.newDir("heap-files");
        Path pipeline = pipeline(dir, topic, "processing:\n  memory-budget: 16MiB\n");
        Ended run = run(dir, pipeline, "-Xmx96m");
        assertFalse(run.log().contains("OutOfMemoryError"), run.log());
        assertEquals(ExitStatus.OK, run.status(), run.log());
        assertEquals(RECORDS, lines(dir.resolve("archive")), "every record archived once");
    }

    private Path pipeline(Path dir, String topic, String processing) throws Exception {
        Path file = dir.resolve("pipeline.yaml");
        Files.writeString(file, """
                source:
                  bootstrap-servers: %s
                  topics: [%s]
                  group: %s
                %ssink:
                  location: archive
                  template: "{topic}/folder={value.folder}/"
                  format: jsonl
                  rolling:
                    max-open-files: %d
                """.formatted(kafka.bootstrapServers(), topic, Names.unique("heap"), processing, FOLDERS));
        return file;
    }

    /** How a run in a JVM of its own ended: its exit status and everything it printed. */
    private record Ended(int status, String log) {
    }

    /** {@code sluice run PIPELINE --until-end} in a JVM with {@code heap}, until it ends (2 minutes at most). */
    private static Ended run(Path dir, Path pipeline, String heap) throws Exception {
        return sluice(dir, heap, "run", pipeline.toString(), "--until-end");
    }

    /** {@code sluice ARGS} in a JVM with {@code heap}, until it ends (2 minutes at most). */
    private static Ended sluice(Path dir, String heap, String... args) throws Exception {
        ChildProcess child = ChildJvm.builder("sluice-" + args[0] + "-" + heap.substring(1))
                .classpathOfThisJvm()
                .jvmOptions(List.of(heap, "-XX:+UseSerialGC"))
                .mainClass(Main.class.getName())
                .args(args)
                .workDir(dir)
                .build()
                .start();
        int status = child.exitStatusWithin(Duration.ofMinutes(2)).orElseThrow(() -> new AssertionError(
                "still running:\n" + child.tail()));
        return new Ended(status, Files.readString(child.logFile(), StandardCharsets.UTF_8));
    }

    /** Records of about 1 KB, each partition's spread over every folder, record after record. */
    private void produce(String topic) {
        Map<String, Object> props = new HashMap<>(kafka.clientProperties(Listener.PLAINTEXT));
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.LINGER_MS_CONFIG, 20);
        String pad = "p".repeat(1_000);
        try (var producer = new KafkaProducer<>(props, new StringSerializer(), new StringSerializer())) {
            for (int i = 0; i < RECORDS; i++) {
                producer.send(new ProducerRecord<>(topic, i % PARTITIONS, null,
                        "{\"n\":" + i + ",\"folder\":\"f" + (i / PARTITIONS % FOLDERS) + "\",\"pad\":\"" + pad + "\"}"));
            }
            producer.flush();
        }
    }

    private static long lines(Path archive) throws Exception {
        long[] n = {0};
        try (Stream<Path> all = Files.walk(archive)) {
            for (Path file : all.filter(Files::isRegularFile)
                    .filter(p -> !archive.relativize(p).startsWith("_sluice")).toList()) {
                ArchivedFormats.rowsOf(file.getFileName().toString()).orElseThrow()
                        .read(file, (t, partition, offset) -> n[0]++);
            }
        }
        return n[0];
    }
}
