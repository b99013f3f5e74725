package io.sluice.storage.resilience;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.local.process.ChildJvm;
import io.sluice.local.process.ChildProcess;
import io.sluice.storage.backend.S3Backend;
import io.sluice.storage.backend.S3Config;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import io.sluice.testkit.SharedS3;
import io.sluice.testkit.TestDirs;
import io.sluice.testkit.s3.S3Server;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;

/**
 * A thousand directories written at once, to S3, in a JVM with a 512 MB heap, 20 records each. Before issue 17's
 * held records, each had a file open: the heap held a small buffer per file while parts accumulated on local disk
 * (buffering a 5 MiB part per file on the heap, as Kafka Connect does, would need 5 GB), and in Parquet the writer's
 * own heap (per-column buffers, a page-sized compressor buffer, dictionaries: 1.1 MB per file at parquet-java's
 * default 1 MiB pages, which ran the heap out). Now 20 records of 280 bytes never pay for a file (a stream format's
 * file is worth 64 KiB of records, a Parquet writer's its fixed heap): the sink holds them packed, counts what they
 * hold, and writes each directory as one file when the engine closes. Nothing runs out of memory, no pressure roll, and every
 * offset lands exactly once.
 */
@Tag("slow")
class ThousandOpenFilesTest {

    private static final int PARTITIONS = 4;
    private static final int FILES = 1_000;
    private static final int PER_FILE = 20;
    private static final int RECORDS = FILES * PER_FILE;
    private static final String TEXT = "a log line of the kind archives are made of, ".repeat(5);
    /** Each record's value and key, at least. */
    private static final int RECORD_BYTES = TEXT.length() + 20;
    /** Read by each format's run, in its own consumer group. */
    private static String topic;

    @BeforeAll
    static void produce() {
        KafkaCluster kafka = SharedKafka.cluster();
        topic = Names.unique("thousand");
        kafka.createTopic(topic, PARTITIONS);
        try (var producer = new KafkaProducer<>(kafka.clientProperties(Listener.PLAINTEXT), new StringSerializer(),
                new StringSerializer())) {
            String text = TEXT;
            for (int i = 0; i < RECORDS; i++) {
                String k = "k" + (i % FILES); // the key too, so each value of k lives in one partition
                producer.send(new ProducerRecord<>(topic, k, "{\"k\":\"" + k + "\",\"i\":" + i + ",\"text\":\""
                        + text + "\"}"));
            }
            producer.flush();
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"jsonl", "parquet"})
    void aThousandDirectoriesToS3FitInAFiveHundredMegabyteHeap(String format) throws Exception {
        KafkaCluster kafka = SharedKafka.cluster();
        S3Server s3 = SharedS3.server();
        String bucket = s3.createBucket("thousand-" + format);
        Path dir = TestDirs.newDir("thousand-files-" + format);

        long started = System.nanoTime();
        ChildProcess child = ChildJvm.builder("thousand-" + format)
                .classpathOfThisJvm()
                .jvmOptions(List.of("-Xmx512m", "-XX:+ExitOnOutOfMemoryError"))
                .mainClass(ArchiverMain.class.getName())
                .args("bootstrap=" + kafka.bootstrapServers(), "topic=" + topic, "group=" + Names.unique("thousand"),
                        "layout={topic}/k={value.k}/", "maxOpenFiles=" + FILES, "maxRecords=1000000",
                        "expect=" + RECORDS, "s3=" + s3.endpoint(), "bucket=" + bucket, "access=" + s3.accessKey(),
                        "secret=" + s3.secretKey(), "spool=" + dir.resolve("spool"), "format=" + format)
                .workDir(dir)
                .build()
                .start();
        child.awaitLogLine(l -> l.startsWith("SLUICE-READY"), Duration.ofSeconds(60));
        String written = child.awaitLogLine(l -> l.startsWith("SLUICE-WRITTEN") || l.startsWith("SLUICE-FAILED"),
                Duration.ofSeconds(90));
        assertTrue(written.startsWith("SLUICE-WRITTEN"), written);
        long held = Long.parseLong(written.split(" ")[1]);
        long live = Long.parseLong(written.split(" ")[2].substring("live=".length()));
        // nothing rolled yet: every record is held, and the sink counts at least its bytes (20 records of a directory
        // are fewer than a packed chunk, so they are held as serialized), and less than the heap holds live (the
        // rest is the JVM's own: consumer, S3 client, engine)
        assertTrue(held >= (long) RECORDS * RECORD_BYTES, "every record held and counted: " + held + " bytes");
        assertTrue(held < live, "the sink counts " + held + " bytes for its records, the heap holds " + live);
        long writtenAt = System.nanoTime();
        child.stop(Duration.ofMinutes(2)); // closing rolls the thousand files, commits and publishes them
        long closedAt = System.nanoTime();
        String log = Files.readString(child.logFile());
        assertFalse(log.contains("OutOfMemoryError"), child.tail());
        String closed = log.lines().filter(l -> l.startsWith("SLUICE-CLOSED")).findFirst()
                .orElseThrow(() -> new AssertionError("no clean close:\n" + child.tail()));
        assertTrue(closed.contains("STOPPED") && closed.contains(" pressure-rolls=0 ") && closed.contains("files="
                + FILES), closed);
        System.out.printf("[thousand-files] %s: held records counted %,d KiB, heap live %,d KiB; %s%n", format,
                held / 1024, live / 1024, closed);

        try (S3Backend reader = new S3Backend(S3Config.builder(bucket).endpoint(s3.endpoint())
                .spoolDirectory(dir.resolve("reader-spool"))
                .credentials(StaticCredentialsProvider.create(AwsBasicCredentials.create(s3.accessKey(),
                        s3.secretKey()))).build())) {
            Map<String, Integer> visible = VisibleOffsets.read(reader);
            Map<Integer, Long> ends = new java.util.HashMap<>();
            try (var consumer = new org.apache.kafka.clients.consumer.KafkaConsumer<>(
                    kafka.clientProperties(Listener.PLAINTEXT), new org.apache.kafka.common.serialization.ByteArrayDeserializer(),
                    new org.apache.kafka.common.serialization.ByteArrayDeserializer())) {
                consumer.endOffsets(java.util.stream.IntStream.range(0, PARTITIONS)
                        .mapToObj(p -> new org.apache.kafka.common.TopicPartition(topic, p)).toList())
                        .forEach((tp, end) -> ends.put(tp.partition(), end));
            }
            VisibleOffsets.assertExactlyOnce(visible, ends);
        }
        System.out.printf("[thousand-files] %s: written in %.1f s, closed (1,000 files sealed and published) in %.1f "
                + "s, read back in %.1f s%n", format, (writtenAt - started) / 1e9, (closedAt - writtenAt) / 1e9,
                (System.nanoTime() - closedAt) / 1e9);
    }
}
