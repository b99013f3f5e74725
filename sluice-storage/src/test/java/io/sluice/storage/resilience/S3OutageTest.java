package io.sluice.storage.resilience;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.core.Engine;
import io.sluice.core.EngineConfig;
import io.sluice.core.Health;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.storage.backend.S3Backend;
import io.sluice.storage.backend.S3Config;
import io.sluice.storage.codec.Codec;
import io.sluice.storage.format.JsonLinesFormat;
import io.sluice.storage.layout.Layout;
import io.sluice.storage.rolling.RollingPolicy;
import io.sluice.storage.sink.ArchiveSink;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import io.sluice.testkit.TestDirs;
import io.sluice.testkit.s3.S3Server;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;

/**
 * The S3 server goes down for 30 s mid-run. Within the retry time, requests are retried, the engine keeps running
 * with consumption paused by its memory budget, and everything lands once the server is back. Beyond it, the engine
 * stops with an error that says so, and a restart finishes the topic. Each offset ends in exactly one visible file.
 */
@Tag("slow")
class S3OutageTest {

    private static final KafkaCluster KAFKA = SharedKafka.cluster();
    private static final int PARTITIONS = 2;
    private static final int RECORDS_PER_FILE = 100;
    private static S3Server server;

    @BeforeAll
    static void startServer() {
        server = S3Server.start("s3-outage");
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }

    /**
     * Two archives of two topics share the outage: one retries for the default 5 minutes and rides it out, the other
     * for 3 s and stops; its restart after the outage finishes its topic.
     */
    @Test
    void aThirtySecondOutageIsRiddenOutWithinTheRetryTimeAndStopsTheEngineBeyondItNothingLostOrDoubled()
            throws Exception {
        String patient = Names.unique("s3-outage");
        String hasty = Names.unique("s3-outage-hasty");
        KAFKA.createTopic(patient, PARTITIONS);
        KAFKA.createTopic(hasty, PARTITIONS);
        S3Backend backend = new S3Backend(config(server.createBucket("outage")).build()); // the default retry time
        ArchiveSink sink = sink(backend);
        Engine engine = Engine.startSink(EngineRuns.config(KAFKA, patient).memoryBudgetBytes(4L << 20).build(), sink);
        String hastyBucket = server.createBucket("hasty");
        EngineConfig hastyConfig = EngineRuns.config(KAFKA, hasty).build();
        S3Backend hastyBackend = new S3Backend(config(hastyBucket).retryFor(Duration.ofSeconds(3)).build());
        ArchiveSink hastySink = sink(hastyBackend);
        Engine hastyEngine = Engine.startSink(hastyConfig, hastySink);
        String stopped = Names.unique("s3-outage-stopped");
        KAFKA.createTopic(stopped, PARTITIONS);
        String stoppedBucket = server.createBucket("stopped");
        EngineConfig stoppedConfig = EngineRuns.config(KAFKA, stopped).build();
        ArchiveSink stoppedSink = sink(new S3Backend(config(stoppedBucket).build()));
        Engine stoppedEngine = Engine.startSink(stoppedConfig, stoppedSink);
        produce(patient, 0, 1_000, 100);
        produce(hasty, 0, 1_000, 100);
        produce(stopped, 0, 1_000, 100);
        awaitPublished(engine, sink, 1_000);
        awaitPublished(hastyEngine, hastySink, 1_000);
        awaitPublished(stoppedEngine, stoppedSink, 1_000);

        server.stop();
        long end = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        // 6 MB: the lanes block on S3 after at most 2 × 400 of these records; the other 5.2 MB exceed the 4 MiB budget
        produce(patient, 1_000, 6_000, 1_000);
        produce(hasty, 1_000, 1_000, 100);
        produce(stopped, 1_000, 1_000, 100);
        boolean paused = false;
        Duration silent = Duration.ZERO;
        while (System.nanoTime() < end) {
            assertNotEquals(Health.FAILED, engine.health(), () -> "the engine failed during the outage: "
                    + engine.failure());
            paused |= engine.stats().pausedPartitions() > 0;
            Duration now = backend.silentFor().orElse(Duration.ZERO);
            silent = now.compareTo(silent) > 0 ? now : silent;
            Thread.sleep(100);
        }
        assertTrue(paused, "with the lanes waiting on S3, the memory budget paused consumption");
        // measured, so that it can be said (the SDK retries without a word: a new user saw only "0.00 rec/s")
        assertTrue(silent.toSeconds() >= 20, "the store's silence while the lanes waited: " + silent);
        String error = EngineRuns.untilFailed(hastyEngine, Duration.ofSeconds(30)); // 3 s of retries: long since
        // a stop asked for while the store has been silent past the grace ends without its last commit, at once; it
        // waited out the drain timeout at each step (a new user's SIGTERM with S3 down: 100 s)
        long stopStarted = System.nanoTime();
        stoppedEngine.close();
        long stopSeconds = java.util.concurrent.TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - stopStarted);
        String stopWhy = String.valueOf(stoppedEngine.failure().orElse(null));
        server.start();

        assertTrue(stopSeconds < 10, "the stop took " + stopSeconds + " s: " + stopWhy);
        assertTrue(stopWhy.contains("DrainAbandonedException") && stopWhy.contains("has not answered for")
                && stopWhy.contains(stoppedBucket), stopWhy);

        assertTrue(error.contains("did not answer within the retry time (3 s)") && error.contains(hastyBucket), error);
        // an outage, which `sluice run` rides out by starting again (a refusal would stop it)
        assertTrue(hastySink.failedByStoreOutage(hastyEngine.failure().orElseThrow()), error);
        EngineRuns.untilWritten(engine, 7_000, Duration.ofSeconds(90));
        assertTrue(backend.silentFor().orElse(Duration.ZERO).toSeconds() < 15, "it answers again");
        VisibleOffsets.assertExactlyOnce(VisibleOffsets.read(backend), ends(7_000));
        backend.close();

        hastyBackend.close();
        long committed = EngineRuns.committed(KAFKA, hastyConfig.groupId(), hasty);
        assertTrue(committed < 2_000, "the records sent during the outage were not committed: " + committed);
        S3Backend again = new S3Backend(config(hastyBucket).build());
        EngineRuns.untilWritten(Engine.startSink(hastyConfig, sink(again)), 2_000 - committed, Duration.ofSeconds(60));
        VisibleOffsets.assertExactlyOnce(VisibleOffsets.read(again), ends(2_000));
        again.close();

        stoppedSink.close();
        long stoppedCommitted = EngineRuns.committed(KAFKA, stoppedConfig.groupId(), stopped);
        assertTrue(stoppedCommitted < 2_000, "the records sent during the outage were not committed: "
                + stoppedCommitted);
        S3Backend resumed = new S3Backend(config(stoppedBucket).build());
        EngineRuns.untilWritten(Engine.startSink(stoppedConfig, sink(resumed)), 2_000 - stoppedCommitted,
                Duration.ofSeconds(60));
        VisibleOffsets.assertExactlyOnce(VisibleOffsets.read(resumed), ends(2_000));
        resumed.close();
    }

    /**
     * Files roll at {@value #RECORDS_PER_FILE} records, inside {@code write}: a lane blocks on S3 after at most
     * {@code 4 × RECORDS_PER_FILE} records of the outage burst, whenever the age-driven checkpoint comes, so the rest
     * of the burst must wait in the engine's memory budget.
     */
    private static ArchiveSink sink(S3Backend backend) {
        return new ArchiveSink(backend, new Layout("{topic}/category={value.category}/", null, ZoneOffset.UTC, null),
                new JsonLinesFormat(Codec.ZSTD, false, false),
                new RollingPolicy(1L << 30, RECORDS_PER_FILE, Duration.ofSeconds(1), 8), true);
    }

    private static S3Config.Builder config(String bucket) {
        return S3Config.builder(bucket).endpoint(server.endpoint()).partSize(S3Backend.MIN_PART_SIZE)
                .spoolDirectory(TestDirs.newDir("outage-spool"))
                .credentials(StaticCredentialsProvider.create(AwsBasicCredentials.create(server.accessKey(),
                        server.secretKey())));
    }

    /** Until the engine took {@code records} and published files: the outage then comes mid-run. */
    private static void awaitPublished(Engine engine, ArchiveSink sink, long records) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (engine.stats().completed() < records || sink.counters().published() == 0) {
            assertTrue(System.nanoTime() < deadline, () -> "nothing published in 60 s: " + engine.health() + " "
                    + engine.failure());
            Thread.sleep(20);
        }
    }

    /** Records spread over the partitions (round robin) and four categories, with {@code padding} bytes each. */
    private static void produce(String topic, int from, int count, int padding) {
        String pad = "x".repeat(padding);
        try (var producer = new KafkaProducer<>(KAFKA.clientProperties(Listener.PLAINTEXT), new StringSerializer(),
                new StringSerializer())) {
            for (int i = from; i < from + count; i++) {
                producer.send(new ProducerRecord<>(topic, i % PARTITIONS, null,
                        "{\"category\":\"c" + (i % 4) + "\",\"i\":" + i + ",\"pad\":\"" + pad + "\"}"));
            }
            producer.flush();
        }
    }

    private static Map<Integer, Long> ends(long total) {
        return Map.of(0, total / PARTITIONS, 1, total / PARTITIONS);
    }
}
