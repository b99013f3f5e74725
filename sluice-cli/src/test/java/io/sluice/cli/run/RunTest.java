package io.sluice.cli.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.cli.Cli;
import io.sluice.cli.ExitStatus;
import io.sluice.cli.Main;
import io.sluice.core.wire.DeadLetterHeaders;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.local.net.Ports;
import io.sluice.local.process.ChildJvm;
import io.sluice.local.process.ChildProcess;
import io.sluice.storage.format.ArchivedFormats;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import io.sluice.testkit.SharedS3;
import io.sluice.testkit.TestDirs;
import io.sluice.testkit.kafka.TestRecords;
import io.sluice.testkit.s3.S3Server;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.ResponseTransformer;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * {@code sluice run} as a user runs it: its own JVM, a pipeline file, the real broker and S3 server. While it archives,
 * its endpoint serves the engine's and the sink's meters. SIGTERM drains it: exit status 0, and the committed offsets
 * are exactly what the visible files (and the dead letters) hold. Nothing it prints contains a secret.
 */
class RunTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** A Kafka password setting that the command must never print (unused over PLAINTEXT). */
    private static final String KAFKA_SECRET = "kafka-S3CR3T-0815";

    private final KafkaCluster kafka = SharedKafka.cluster();
    private final S3Server s3 = SharedS3.server();

    @Test
    void sigtermDrainsExitsZeroAndTheCommittedOffsetsAreWhatTheFilesHold() throws Exception {
        String topic = Names.unique("orders");
        String dlq = topic + "-dlq";
        String group = Names.unique("archiver");
        kafka.createTopic(topic, 3);
        kafka.createTopic(dlq, 1);
        String bucket = s3.createBucket("run");
        produce(topic, 0, 3_000, true);
        Path dir = TestDirs.newDir("run");
        Path pipeline = pipeline(dir, topic, dlq, group, bucket, s3.secretKey());

        int metricsPort = Ports.free();
        ChildProcess child = ChildJvm.builder("sluice-run")
                .classpathOfThisJvm()
                .jvmOptions(List.of("-Xmx256m", "-XX:+UseSerialGC"))
                .mainClass(Main.class.getName())
                .args("--verbose", "--log-format", "json", "run", pipeline.toString(), "--progress-every", "1s",
                        "--metrics-port", Integer.toString(metricsPort))
                .workDir(dir)
                .build()
                .start();
        try (S3Client client = s3.client()) {
            // files are visible, so commits happen: stop it while more records keep coming
            awaitObjects(client, bucket, child);
            assertServesTheEnginesAndTheSinksMeters(metricsPort, group);
            produce(topic, 3_000, 3_000, false);
            int status = child.stop(Duration.ofSeconds(90));
            String log = Files.readString(child.logFile(), StandardCharsets.UTF_8);
            assertEquals(ExitStatus.OK, status, log);

            Map<Integer, Set<Long>> archived = archivedOffsets(client, bucket, topic, dir.resolve("downloads"));
            Map<Integer, Set<Long>> dead = deadLetters(dlq);
            Map<TopicPartition, OffsetAndMetadata> committed = kafka.admin().listConsumerGroupOffsets(group)
                    .partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS);
            long total = 0;
            for (int p = 0; p < 3; p++) {
                OffsetAndMetadata offset = committed.get(new TopicPartition(topic, p));
                long end = offset == null ? 0 : offset.offset();
                Set<Long> covered = new HashSet<>(archived.getOrDefault(p, Set.of()));
                for (long o : dead.getOrDefault(p, Set.of())) {
                    assertTrue(covered.add(o), "offset " + o + " of partition " + p + " is archived and dead");
                }
                assertEquals(end, covered.size(), "partition " + p + ": the commit covers exactly the files");
                assertTrue(covered.stream().allMatch(o -> o < end), "partition " + p + ": nothing beyond the commit");
                total += end;
            }
            assertTrue(total >= 3_000, "at least the first batch was archived before the stop: " + total);
            assertEquals(1, dead.values().stream().mapToInt(Set::size).sum(), "the one record that is not JSON");
            assertTrue(log.contains("; 1 record to the dead-letter topic"), "the stop line counts it:\n" + log);

            assertLogIsJsonWithoutSecrets(log);
        }
    }

    @Test
    void validateConnectReachesBrokersAndStorageAndReportsBadCredentialsWithoutPrintingThem() throws Exception {
        String topic = Names.unique("connect");
        kafka.createTopic(topic, 2);
        String bucket = s3.createBucket("connect");
        Path dir = TestDirs.newDir("connect");

        Path good = pipeline(dir, topic, null, "g", bucket, s3.secretKey());
        Cli.Result ok = Cli.run("validate", "--connect", good.toString());
        assertEquals(ExitStatus.OK, ok.status(), ok.out() + ok.err());
        assertTrue(ok.out().contains("brokers: " + kafka.bootstrapServers() + " answer over PLAINTEXT"), ok.out());
        assertTrue(ok.out().contains("topic " + topic + ": 2 partitions"), ok.out());
        assertTrue(ok.out().contains("storage: s3://" + bucket + "/archive/ answers, and takes a file"), ok.out());

        String wrongSecret = "wrong-S3CR3T-" + System.nanoTime();
        Path bad = pipeline(TestDirs.newDir("connect-bad"), topic + "-missing", null, "g", bucket, wrongSecret);
        Cli.Result failed = Cli.run("validate", "--connect", bad.toString());
        assertEquals(ExitStatus.FAILURE, failed.status(), failed.out() + failed.err());
        assertTrue(failed.out().contains("topic " + topic + "-missing FAILED: it does not exist"), failed.out());
        assertTrue(failed.out().contains("storage: s3://" + bucket + "/archive/ FAILED: "), failed.out());
        assertFalse((failed.out() + failed.err()).contains(wrongSecret), failed.out());
        assertFalse((failed.out() + failed.err()).contains(KAFKA_SECRET), failed.out());
    }

    /** A pipeline like examples/s3-parquet-by-hour-and-country.yaml, for this test's broker and S3 server. */
    private Path pipeline(Path dir, String topic, String dlq, String group, String bucket, String secretKey)
            throws Exception {
        String yaml = """
                source:
                  bootstrap-servers: %s
                  topics: [%s]
                  group: %s
                  properties:
                    session.timeout.ms: 6000
                    heartbeat.interval.ms: 500
                    ssl.keystore.password: %s
                processing:
                  commit-interval: 300ms
                %s
                sink:
                  location: s3://%s/archive/
                  template: "{topic}/dt={ts:yyyy-MM-dd}/category={value.category}/"
                  format: jsonl
                  codec: zstd
                  rolling:
                    max-records: 100
                    max-age: 2s
                  s3:
                    endpoint: %s
                    region: %s
                    access-key: %s
                    secret-key: %s
                """.formatted(kafka.bootstrapServers(), topic, group, KAFKA_SECRET,
                dlq == null ? "" : "  dead-letter-topic: " + dlq, bucket, s3.endpoint(), S3Server.REGION,
                s3.accessKey(), secretKey);
        Path file = dir.resolve("pipeline.yaml");
        Files.writeString(file, yaml);
        return file;
    }

    private void produce(String topic, int from, int count, boolean withBadRecord) {
        Map<String, Object> props = new HashMap<>(kafka.clientProperties(Listener.PLAINTEXT));
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(props, new StringSerializer(),
                new StringSerializer())) {
            for (int i = from; i < from + count; i++) {
                String value = withBadRecord && i == from + 100 ? "this is not JSON"
                        : "{\"id\":" + i + ",\"category\":\"c" + (i % 3) + "\"}";
                producer.send(new ProducerRecord<>(topic, "k" + i, value));
            }
            producer.flush();
        }
    }

    private static void awaitObjects(S3Client client, String bucket, ChildProcess child) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (client.listObjectsV2(b -> b.bucket(bucket).prefix("archive/orders")).keyCount() == 0) {
            if (!child.isAlive() || System.nanoTime() > deadline) {
                throw new AssertionError("no file became visible; the run's log:\n" + child.tail());
            }
            Thread.sleep(100);
        }
    }

    /** Partition → offsets in the visible files, each offset at most once. */
    private static Map<Integer, Set<Long>> archivedOffsets(S3Client client, String bucket, String topic, Path downloads)
            throws Exception {
        Files.createDirectories(downloads);
        Map<Integer, Set<Long>> offsets = new HashMap<>();
        List<S3Object> objects = client.listObjectsV2Paginator(b -> b.bucket(bucket).prefix("archive/" + topic + "/"))
                .contents().stream().toList();
        for (S3Object object : objects) {
            Path file = downloads.resolve(object.key().replace('/', '_'));
            client.getObject(b -> b.bucket(bucket).key(object.key()), ResponseTransformer.toFile(file));
            ArchivedFormats.rowsOf(file.getFileName().toString()).orElseThrow().read(file, (t, partition, offset) ->
                    assertTrue(offsets.computeIfAbsent(partition, p -> new HashSet<>()).add(offset),
                            "offset " + offset + " of partition " + partition + " is in two rows"));
        }
        return offsets;
    }

    private Map<Integer, Set<Long>> deadLetters(String dlq) {
        Map<Integer, Set<Long>> dead = new HashMap<>();
        for (ConsumerRecord<byte[], byte[]> r : TestRecords.readAll(kafka.clientProperties(Listener.PLAINTEXT), dlq,
                Duration.ofSeconds(30))) {
            int partition = Integer.parseInt(header(r, DeadLetterHeaders.SOURCE_PARTITION));
            dead.computeIfAbsent(partition, p -> new HashSet<>())
                    .add(Long.parseLong(header(r, DeadLetterHeaders.SOURCE_OFFSET)));
        }
        return dead;
    }

    private static String header(ConsumerRecord<byte[], byte[]> record, String name) {
        return new String(record.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
    }

    /** One registry for the engine and the sink, served while the run goes on. */
    private static void assertServesTheEnginesAndTheSinksMeters(int port, String group) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        HttpResponse<String> ready = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                + "/ready")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals("200 READY: 3 partitions assigned", ready.statusCode() + " " + ready.body().strip());
        // a file is visible in S3 a moment before the publishing thread counts it: the scrape waits for the count
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (true) {
            String metrics = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                    .build(), HttpResponse.BodyHandlers.ofString()).body();
            String uncounted = null;
            for (String meter : List.of("sluice_records_completed_total", "sluice_sink_files_published_total")) {
                Matcher sample = Pattern.compile("(?m)^" + meter + "\\{[^}]*group=\"" + group + "\"[^}]*} (\\S+)$")
                        .matcher(metrics);
                if (!(sample.find() && Double.parseDouble(sample.group(1)) > 0)) {
                    uncounted = meter;
                }
            }
            if (uncounted == null) {
                return;
            }
            assertTrue(System.nanoTime() < deadline, uncounted + " counts:\n" + metrics);
            Thread.sleep(100);
        }
    }

    private void assertLogIsJsonWithoutSecrets(String log) throws Exception {
        assertFalse(log.contains(KAFKA_SECRET), "the Kafka password setting is printed");
        assertFalse(log.contains(s3.secretKey()), "the S3 secret key is printed");
        boolean stoppedCleanly = false;
        boolean progress = false;
        for (String line : log.lines().toList()) {
            if (line.startsWith("=== sluice-testkit")) {
                continue; // the test kit's own marker
            }
            JsonNode event = JSON.readTree(line);
            String message = event.path("formattedMessage").asText();
            stoppedCleanly |= message.startsWith("stopped cleanly: ");
            progress |= message.startsWith("archiving: ") && event.has("kvpList");
        }
        assertTrue(stoppedCleanly, "a JSON line says it stopped cleanly:\n" + log);
        assertTrue(progress, "progress lines carry their figures as key-value pairs:\n" + log);
    }
}
