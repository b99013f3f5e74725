package io.sluice.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.core.Engine;
import io.sluice.core.EngineConfig;
import io.sluice.core.Health;
import io.sluice.local.kafka.Listener;
import io.sluice.storage.backend.LocalBackend;
import io.sluice.storage.backend.StorageBackend;
import io.sluice.storage.codec.Codec;
import io.sluice.storage.format.FileFormat;
import io.sluice.storage.format.JsonLinesFormat;
import io.sluice.storage.layout.Layout;
import io.sluice.storage.rolling.RollingPolicy;
import io.sluice.storage.sink.ArchiveSink;
import io.sluice.testkit.SharedKafka;
import io.sluice.testkit.TestDirs;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * A real archive for the audit to check: the engine with the archive sink, exactly once, JSON Lines + zstd laid out
 * by category (so each file holds every fourth offset or so, as real layouts interleave).
 */
final class ArchiveRun {

    private ArchiveRun() {
    }

    /**
     * Writes records {@code from} to {@code from + count - 1} of {@code topic}, record i to partition
     * i % {@code partitions}, each a JSON object with the category the layout needs.
     */
    static void produce(String topic, int partitions, int from, int count) {
        try (var producer = new KafkaProducer<>(SharedKafka.cluster().clientProperties(Listener.PLAINTEXT),
                new StringSerializer(), new StringSerializer())) {
            for (int i = from; i < from + count; i++) {
                producer.send(new ProducerRecord<>(topic, i % partitions, "k" + i, "{\"category\":\"c" + (i % 4)
                        + "\",\"i\":" + i + "}"));
            }
            producer.flush();
        }
    }

    /** The audit of an archive of {@code topic} in local files under {@code root}, with the archiver's group. */
    static AuditReport audit(String topic, String group, Path root) throws AuditException {
        return Audit.run(AuditConfig.builder()
                .kafkaProperties(SharedKafka.cluster().clientProperties(Listener.PLAINTEXT))
                .topic(topic)
                .storage(new LocalBackend(root))
                .groupId(group)
                .workDir(TestDirs.newDir("audit-work"))
                .build());
    }

    /**
     * Archives {@code topic} until the engine has completed {@code records} records, then closes it cleanly; files roll
     * at {@code recordsPerFile} records.
     */
    static void archive(String topic, String group, String deadLetterTopic, StorageBackend storage, long records,
            int recordsPerFile) throws InterruptedException {
        archive(topic, group, deadLetterTopic, storage, records, recordsPerFile, new JsonLinesFormat(Codec.ZSTD, false,
                false));
    }

    /** As above, in {@code format}. */
    static void archive(String topic, String group, String deadLetterTopic, StorageBackend storage, long records,
            int recordsPerFile, FileFormat format) throws InterruptedException {
        EngineConfig.Builder config = EngineConfig.builder()
                .consumerProperties(SharedKafka.cluster().clientProperties(Listener.PLAINTEXT))
                .groupId(group)
                .consumerProperty(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, 3_000)
                .consumerProperty(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, 500)
                .topics(topic)
                .commitInterval(Duration.ofMillis(200));
        if (deadLetterTopic != null) {
            config.deadLetterTopic(deadLetterTopic);
        }
        ArchiveSink sink = new ArchiveSink(storage, new Layout("{topic}/category={value.category}/", null,
                ZoneOffset.UTC, null), format,
                new RollingPolicy(1L << 30, recordsPerFile, Duration.ofMinutes(5), 8), true);
        Engine engine = Engine.startSink(config.build(), sink);
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (engine.stats().completed() < records) {
            if (System.nanoTime() > deadline || engine.health() == Health.FAILED) {
                engine.close();
                throw new AssertionError("the archiver completed " + engine.stats().completed() + " of " + records
                        + " records: " + engine.health() + " " + engine.failure());
            }
            Thread.sleep(20);
        }
        engine.close(); // the last checkpoint seals, commits and publishes everything
        assertEquals(Health.STOPPED, engine.health(), "clean close: " + engine.failure());
    }
}
