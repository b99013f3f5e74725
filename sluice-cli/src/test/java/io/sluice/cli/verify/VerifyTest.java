package io.sluice.cli.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.cli.Cli;
import io.sluice.cli.ExitStatus;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import io.sluice.testkit.SharedS3;
import io.sluice.testkit.TestDirs;
import io.sluice.testkit.s3.S3Server;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.ResponseTransformer;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * The Parquet example of examples/ run for real with {@code run --until-end} on the real broker and S3 server (the
 * only change: an S3-compatible endpoint and its credentials), then its archive audited with {@code verify}: clean
 * from the pipeline file and from flags over a local copy, and, once a file is deleted, the gap with the file named.
 * {@code lag} reads the same pipeline file.
 */
class VerifyTest {

    private static final Path EXAMPLES = Path.of("..", "examples").toAbsolutePath().normalize();
    private static final String EXAMPLE = "s3-parquet-by-hour-and-country.yaml";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int RECORDS = 400;

    private final KafkaCluster kafka = SharedKafka.cluster();
    private final S3Server s3 = SharedS3.server();

    @Test
    void theParquetExampleRunsToTheEndAndVerifiesCleanUntilAFileIsDeleted() throws Exception {
        String topic = Names.unique("pageviews");
        kafka.createTopic(topic, 2);
        kafka.createTopic(topic + "-dlq", 1);
        String bucket = s3.createBucket("verify");
        Path pipeline = example(TestDirs.newDir("verify"), topic);
        produce(topic);
        Map<String, String> env = Map.of("KAFKA_BROKERS", kafka.bootstrapServers(), "ARCHIVE_BUCKET", bucket,
                "AWS_REGION", S3Server.REGION);

        Cli.Result run = Cli.run(env, "run", pipeline.toString(), "--until-end", "--max-read-rate", "10MB/s");
        assertEquals(ExitStatus.OK, run.status(), run.err());
        assertTrue(run.err().contains("stopped cleanly: " + RECORDS + " records done"), run.err());

        Cli.Result clean = Cli.run(env, "verify", pipeline.toString());
        assertEquals(ExitStatus.OK, clean.status(), clean.out() + clean.err());
        assertTrue(clean.out().startsWith("OK: every expected offset of " + topic + " appears exactly once in s3://"
                + bucket + "/kafka/ (" + (RECORDS - 2) + " offsets in 2 partitions, "), clean.out());
        assertTrue(clean.out().contains("the value is not JSON"), "a dead letter with its reason:\n" + clean.out());
        assertTrue(clean.out().contains("group " + topic + "-to-s3: committed offset "), clean.out());

        Cli.Result lag = Cli.run(env, "lag", pipeline.toString(), "--interval", "100ms");
        assertEquals(ExitStatus.OK, lag.status(), lag.out() + lag.err());
        assertTrue(lag.out().startsWith("Group " + topic + "-to-s3 at "), lag.out());
        assertTrue(lag.out().contains("No lag: the group has processed everything up to the end of all 2 partitions."),
                lag.out());

        try (S3Client client = s3.client()) {
            Path copy = download(client, bucket, TestDirs.newDir("verify-copy"));
            String lost = deleteOneDataFile(client, bucket);

            Cli.Result gap = Cli.run(env, "verify", pipeline.toString());
            assertEquals(ExitStatus.FAILURE, gap.status(), gap.out() + gap.err());
            assertTrue(gap.out().startsWith("PROBLEMS: " + topic + " in s3://" + bucket + "/kafka/: of " + (RECORDS - 2)
                    + " expected offsets, "), gap.out());
            assertTrue(gap.out().contains("  missing: "), gap.out());
            assertTrue(gap.out().contains("    not visible: " + lost + " (offsets "), lost + " named:\n" + gap.out());

            // the copy taken before, audited from flags alone
            Cli.Result flags = Cli.run("verify", "--bootstrap-servers", kafka.bootstrapServers(), "--topic", topic,
                    "--storage", copy.toString(), "--dead-letter-topic", topic + "-dlq", "--group", topic + "-to-s3",
                    "--json");
            assertEquals(ExitStatus.OK, flags.status(), flags.out() + flags.err());
            JsonNode report = JSON.readTree(flags.out());
            assertEquals("ok", report.get("status").asText(), flags.out());
            assertEquals(RECORDS - 2, report.at("/totals/expected").asLong(), flags.out());

            Cli.Result range = Cli.run("verify", "-b", kafka.bootstrapServers(), "-t", topic, "--storage",
                    copy.toString(), "--from", "1=5", "--to", "1=15");
            assertTrue(range.out().contains("Partition 1: "), range.out());
            assertTrue(range.out().contains("  range 5–14 (log start 0, "), range.out());
            assertTrue(!range.out().contains("Partition 0: "), "only the partition asked for:\n" + range.out());

            // a typo in the location: not "the committed manifest does not exist... reset the group's offsets"
            Path typo = copy.resolveSibling(copy.getFileName() + "-typo");
            Cli.Result nothing = Cli.run("verify", "-b", kafka.bootstrapServers(), "-t", topic, "--storage",
                    typo.toString(), "--group", topic + "-to-s3");
            assertEquals(ExitStatus.FAILURE, nothing.status(), nothing.out() + nothing.err());
            assertTrue(nothing.err().contains("nothing at all is at ") && nothing.err().contains("Is the location "
                    + "right (sink.location, or --storage)?"), nothing.out() + nothing.err());
            assertTrue(!(nothing.out() + nothing.err()).contains("reset"), nothing.out() + nothing.err());

            // records the archiver has not run over yet are counted apart from those missing
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(kafka.clientProperties(
                    Listener.PLAINTEXT), new StringSerializer(), new StringSerializer())) {
                for (int i = 0; i < 3; i++) {
                    producer.send(new ProducerRecord<>(topic, 0, "late", "{\"later\":" + i + "}")).get();
                }
            }
            Cli.Result pending = Cli.run("verify", "-b", kafka.bootstrapServers(), "-t", topic, "--storage",
                    copy.toString(), "--dead-letter-topic", topic + "-dlq", "--group", topic + "-to-s3");
            assertTrue(pending.out().startsWith("PROBLEMS: ") && pending.out().lines().findFirst().orElseThrow()
                    .contains("expected offsets, 3 not archived yet (at or above the group's committed offset)"),
                    pending.out());
        }
    }

    @Test
    void badUsageExitsWithTwo() {
        Cli.Result noStorage = Cli.run("verify", "-b", kafka.bootstrapServers(), "-t", "orders");
        assertEquals(ExitStatus.USAGE, noStorage.status());
        assertTrue(noStorage.err().startsWith("name the archive with --storage, or give the pipeline file"),
                noStorage.err());

        Cli.Result backwards = Cli.run("verify", "-b", kafka.bootstrapServers(), "-t", "orders", "--storage",
                TestDirs.newDir("verify-empty").toString(), "--from", "0=10", "--to", "0=5");
        assertEquals(ExitStatus.USAGE, backwards.status());
        assertTrue(backwards.err().startsWith("an offset range needs 0 <= from <= until, not 10..5"), backwards.err());

        Cli.Result scheme = Cli.run("verify", "-b", kafka.bootstrapServers(), "-t", "orders", "--storage",
                "hfds://namenode/archive");
        assertEquals(ExitStatus.USAGE, scheme.status());
        assertTrue(scheme.err().startsWith("--storage: 'hfds://' is not a storage this build knows"), scheme.err());
    }

    /**
     * The example and its schema in {@code dir}, its names made unique for this test, and the S3 server's endpoint
     * and credentials added to its {@code s3} section (which ends the file).
     */
    private Path example(Path dir, String topic) throws Exception {
        String yaml = Files.readString(EXAMPLES.resolve(EXAMPLE), StandardCharsets.UTF_8).replace("pageviews", topic);
        assertTrue(yaml.stripTrailing().endsWith("region: ${AWS_REGION:-eu-west-1}"), yaml);
        yaml = yaml.stripTrailing() + "\n    endpoint: " + s3.endpoint() + "\n    access-key: " + s3.accessKey()
                + "\n    secret-key: " + s3.secretKey() + "\n";
        Files.createDirectories(dir.resolve("schemas"));
        Files.copy(EXAMPLES.resolve("schemas/pageview.avsc"), dir.resolve("schemas/pageview.avsc"));
        Path file = dir.resolve(EXAMPLE);
        Files.writeString(file, yaml);
        return file;
    }

    /** Page views over the last three hours from three countries, one record that is not JSON and one without country. */
    private void produce(String topic) {
        Map<String, Object> props = new HashMap<>(kafka.clientProperties(Listener.PLAINTEXT));
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        long now = System.currentTimeMillis();
        List<String> countries = List.of("DE", "FR", "US");
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(props, new StringSerializer(),
                new StringSerializer())) {
            for (int i = 0; i < RECORDS; i++) {
                String time = Instant.ofEpochMilli(now - 3 * 3_600_000L + i * 27_000L).atOffset(ZoneOffset.ofHours(2))
                        .toString();
                String value = i == 100 ? "this is not JSON"
                        : i == 200 ? "{\"event_time\":\"" + time + "\",\"user_id\":\"u\",\"url\":\"/\"}"
                        : "{\"event_time\":\"" + time + "\",\"user_id\":\"u" + i % 50 + "\",\"url\":\"/p/" + i
                                + "\",\"country\":\"" + countries.get(i % 3) + "\",\"duration_ms\":" + i * 10 + "}";
                producer.send(new ProducerRecord<>(topic, "u" + i % 50, value));
            }
            producer.flush();
        }
    }

    /** Every object under the archive's prefix, manifests included, as a local folder: the archive's root. */
    private static Path download(S3Client client, String bucket, Path dir) throws Exception {
        for (S3Object object : objects(client, bucket)) {
            Path file = dir.resolve(object.key().substring("kafka/".length()));
            Files.createDirectories(file.getParent());
            client.getObject(b -> b.bucket(bucket).key(object.key()), ResponseTransformer.toFile(file));
        }
        return dir;
    }

    /** Deletes the first data file; returns its path under the archive's root. */
    private static String deleteOneDataFile(S3Client client, String bucket) {
        S3Object file = objects(client, bucket).stream().filter(o -> o.key().endsWith(".parquet")).findFirst()
                .orElseThrow(() -> new AssertionError("no Parquet file in the archive"));
        client.deleteObject(b -> b.bucket(bucket).key(file.key()));
        return file.key().substring("kafka/".length());
    }

    private static List<S3Object> objects(S3Client client, String bucket) {
        return client.listObjectsV2Paginator(b -> b.bucket(bucket).prefix("kafka/")).contents().stream().toList();
    }
}
