package io.sluice.storage.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.core.Engine;
import io.sluice.core.EngineConfig;
import io.sluice.core.Health;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.storage.backend.TestStorage;
import io.sluice.storage.codec.Codec;
import io.sluice.storage.format.JsonLinesFormat;
import io.sluice.storage.layout.Layout;
import io.sluice.storage.rolling.RollingPolicy;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedHdfs;
import io.sluice.testkit.SharedKafka;
import io.sluice.testkit.SharedS3;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Engine and archive sink on S3 (s3proxy) and on HDFS, end to end: one member archives, a second joins halfway, so
 * partitions are revoked (a rolling trigger) and recovered by the other; once the group's commits reach the end of
 * the topic, both close, and every offset is in exactly one visible file with nothing left staged.
 */
@Tag("slow")
class RemoteArchiveTest {

    private static final int RECORDS = 3_000;
    private final KafkaCluster kafka = SharedKafka.cluster();

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"s3", "hdfs"})
    void twoMembersArchiveEveryRecordExactlyOnceAcrossARebalance(String kind) throws Exception {
        String topic = Names.unique("remote-archive");
        kafka.createTopic(topic, 3);
        Map<Integer, Long> ends = CategoryRecords.produce(kafka, topic, RECORDS);
        TestStorage storage = kind.equals("s3") ? TestStorage.s3(SharedS3.server())
                : TestStorage.hdfs(SharedHdfs.server());
        EngineConfig config = EngineConfig.builder()
                .consumerProperties(kafka.clientProperties(Listener.PLAINTEXT))
                .groupId(Names.unique("remote-archiver"))
                .consumerProperty(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, 3_000)
                .consumerProperty(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, 500)
                .consumerProperty(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 100)
                .topics(topic)
                .commitInterval(Duration.ofMillis(200))
                .drainTimeout(Duration.ofSeconds(10))
                .build();

        ArchiveSink firstSink = sink(storage);
        Engine first = Engine.startSink(config, firstSink);
        await("the first member to archive a third of the records", () -> first.stats().completed() >= RECORDS / 3,
                first);
        ArchiveSink secondSink = sink(storage);
        Engine second = Engine.startSink(config, secondSink);
        await("the group's commits to reach the end of the topic", () -> committed(config.groupId(), topic, ends),
                second);
        first.close();
        second.close();
        firstSink.close();
        secondSink.close();
        assertEquals(Health.STOPPED, first.health(), "clean close: " + first.failure());
        assertEquals(Health.STOPPED, second.health(), "clean close: " + second.failure());
        assertTrue(first.stats().revoked() > 0, "the second member took partitions from the first");

        ArchiveContents.read(storage).assertExactlyOnce(topic, ends);
    }

    private static ArchiveSink sink(TestStorage storage) throws Exception {
        return new ArchiveSink(storage.open(),
                new Layout("{topic}/hr={ts:HH}/category={value.category}/", null, ZoneOffset.UTC, null),
                new JsonLinesFormat(Codec.ZSTD, false, false),
                new RollingPolicy(64 * 1024, 300, Duration.ofSeconds(1), 8), true);
    }

    private boolean committed(String group, String topic, Map<Integer, Long> ends) {
        try {
            Map<TopicPartition, OffsetAndMetadata> offsets = kafka.admin().listConsumerGroupOffsets(group)
                    .partitionsToOffsetAndMetadata().get();
            Map<Integer, Long> at = offsets.entrySet().stream().filter(e -> e.getKey().topic().equals(topic)
                    && e.getValue() != null).collect(Collectors.toMap(e -> e.getKey().partition(),
                    e -> e.getValue().offset()));
            return at.equals(ends);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static void await(String what, java.util.function.BooleanSupplier done, Engine engine)
            throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline || engine.health() == Health.FAILED) {
                throw new AssertionError("waiting for " + what + ": " + engine.health() + " " + engine.stats() + " "
                        + engine.failure());
            }
            Thread.sleep(50);
        }
    }
}
