package io.sluice.storage.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.core.Engine;
import io.sluice.core.EngineConfig;
import io.sluice.core.Health;
import io.sluice.core.wire.DeadLetterHeaders;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.storage.backend.LocalBackend;
import io.sluice.storage.codec.Codec;
import io.sluice.storage.format.JsonLinesFormat;
import io.sluice.storage.layout.Layout;
import io.sluice.storage.rolling.RollingPolicy;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import io.sluice.testkit.TestDirs;
import io.sluice.testkit.kafka.TestRecords;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/** Engine, archive sink and local files together: every record in exactly one visible file, in its directory. */
class LocalArchiveTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final KafkaCluster kafka = SharedKafka.cluster();

    @Test
    void recordsLandOnceEachInFilesByHourAndCategoryAndBadOnesAreDeadLettered() throws Exception {
        String topic = Names.unique("events");
        String dlq = topic + "-dlq";
        kafka.createTopic(topic, 3);
        kafka.createTopic(dlq, 1);
        produce(topic, 0, 3_000);
        Path root = TestDirs.newDir("archive");
        EngineConfig config = EngineConfig.builder()
                .consumerProperties(kafka.clientProperties(Listener.PLAINTEXT))
                .groupId(Names.unique("archiver"))
                .consumerProperty(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, 3_000)
                .consumerProperty(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, 500)
                .topics(topic)
                .commitInterval(Duration.ofMillis(300))
                .deadLetterTopic(dlq)
                .build();

        run(config, root, 3_000 - 2);
        Map<String, Integer> landed = landed(root);
        assertEquals(2_998, landed.size(), "every good record landed");
        assertTrue(landed.values().stream().allMatch(n -> n == 1), "each exactly once");

        List<ConsumerRecord<byte[], byte[]>> dead = TestRecords.readAll(kafka.clientProperties(Listener.PLAINTEXT), dlq,
                Duration.ofSeconds(10));
        assertEquals(2, dead.size());
        List<String> reasons = dead.stream().map(r -> new String(r.headers().lastHeader(
                DeadLetterHeaders.ERROR_MESSAGE).value(), StandardCharsets.UTF_8)).sorted().toList();
        assertTrue(reasons.get(0).startsWith("the path template needs value.category, which is missing"), reasons.get(0));
        assertTrue(reasons.get(1).startsWith("the value is not JSON"), reasons.get(1));

        // a restart with more data continues where the committed manifests left off
        produce(topic, 3_000, 1_500);
        run(config, root, 1_500);
        landed = landed(root);
        assertEquals(2_998 + 1_500, landed.size());
        assertTrue(landed.values().stream().allMatch(n -> n == 1), "still each exactly once");
        try (Stream<Path> staged = Files.walk(root.resolve("_sluice/staging"))) {
            assertEquals(0, staged.filter(Files::isRegularFile).count(), "nothing left staged");
        }
    }

    private static void run(EngineConfig config, Path root, int expectedNew) throws Exception {
        int before = landed(root).size();
        ArchiveSink sink = new ArchiveSink(new LocalBackend(root),
                new Layout("{topic}/dt={ts:yyyy-MM-dd}/hr={ts:HH}/category={value.category}/", "ts", ZoneOffset.UTC, null),
                new JsonLinesFormat(Codec.ZSTD, false, false),
                // two seconds of age: the tail of the data becomes visible with no new records arriving
                new RollingPolicy(64 * 1024, 400, Duration.ofSeconds(2), 8), true);
        Engine engine = Engine.startSink(config, sink);
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (landed(root).size() < before + expectedNew) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("only " + (landed(root).size() - before) + " of " + expectedNew + " landed; "
                        + engine.health() + " " + engine.failure());
            }
            Thread.sleep(50);
        }
        engine.close();
        assertEquals(Health.STOPPED, engine.health(), "clean close: " + engine.failure());
    }

    /**
     * "partition@offset" → how many visible lines hold it; checks each line's directory against its fields. Only the
     * visible tree is walked ({@code _sluice/} changes under a running sink).
     */
    static Map<String, Integer> landed(Path root) throws Exception {
        Map<String, Integer> counts = new HashMap<>();
        List<Path> files = new java.util.ArrayList<>();
        if (!Files.exists(root)) {
            return counts;
        }
        try (Stream<Path> tops = Files.list(root)) {
            for (Path top : tops.filter(p -> !p.getFileName().toString().equals("_sluice")).toList()) {
                try (Stream<Path> walk = Files.walk(top)) {
                    walk.filter(p -> p.toString().endsWith(".jsonl.zst")).forEach(files::add);
                }
            }
        }
        for (Path f : files) {
            try (InputStream in = Codec.ZSTD.decompress(Files.newInputStream(f));
                 BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                String line;
                while ((line = lines.readLine()) != null) {
                    JsonNode row = JSON.readTree(line);
                    String dir = root.relativize(f.getParent()).toString();
                    assertTrue(dir.endsWith("category=" + row.get("category").asText()), dir + " holds " + line);
                    counts.merge(row.get("kafka_partition").asInt() + "@" + row.get("kafka_offset").asLong(), 1,
                            Integer::sum);
                }
            }
        }
        return counts;
    }

    private void produce(String topic, int from, int count) {
        Map<String, Object> props = new HashMap<>(kafka.clientProperties(Listener.PLAINTEXT));
        props.put("max.in.flight.requests.per.connection", 1);
        String[] categories = {"click", "view", "buy", "share"};
        long hour = 3_600_000L;
        try (var producer = new KafkaProducer<>(props, new StringSerializer(), new StringSerializer())) {
            for (int i = from; i < from + count; i++) {
                String value;
                if (i == 1_000) {
                    value = "{\"ts\": 1795000000000, \"category\": \"click\""; // truncated: not JSON
                } else if (i == 2_000) {
                    value = "{\"ts\": 1795000000000, \"kind\": \"no category\"}";
                } else {
                    value = "{\"ts\":" + (1_795_000_000_000L + (i % 6) * hour) + ",\"category\":\""
                            + categories[i % categories.length] + "\",\"user\":\"u" + (i % 97) + "\",\"i\":" + i + "}";
                }
                producer.send(new ProducerRecord<>(topic, "k" + (i % 50), value));
            }
            producer.flush();
        }
    }
}
