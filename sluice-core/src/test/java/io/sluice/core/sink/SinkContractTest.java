package io.sluice.core.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.core.Engine;
import io.sluice.core.EngineConfig;
import io.sluice.core.Health;
import io.sluice.core.wire.CommitMetadata;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import io.sluice.testkit.TestDirs;
import io.sluice.testkit.kafka.TestRecords;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class SinkContractTest {

    private final KafkaCluster kafka = SharedKafka.cluster();

    @Test
    void checkpointsAreCommittedWithTheSinkDataAndPublishedOnlyAfterTheCommitAcrossRestartsAndRevokes()
            throws Exception {
        String topic = Names.unique("sink");
        kafka.createTopic(topic, 3);
        Map<String, Object> client = kafka.clientProperties(Listener.PLAINTEXT);
        TestRecords.produceNumbered(client, topic, 0, 6_000);
        Path dir = TestDirs.newDir("chunk-sink");
        EngineConfig config = EngineConfig.builder()
                .consumerProperties(client)
                .groupId(Names.unique("sink-group"))
                .consumerProperty(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, 3_000)
                .consumerProperty(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, 500)
                .topics(topic)
                .commitInterval(Duration.ofMillis(200))
                .drainTimeout(Duration.ofSeconds(10))
                .build();

        ChunkFileSink first = new ChunkFileSink(dir);
        Engine firstEngine = Engine.startSink(config, first);
        awaitVisible(dir, 6_000);
        firstEngine.close();
        assertEquals(Health.STOPPED, firstEngine.health(), "a clean close: " + firstEngine.failure());
        assertExactlyOnce(dir, 6_000);
        assertOrdered(first.calls, "open", "checkpoint", "committed", "close");

        // the commit carries the sink's data: the name of the last chunk of each partition
        Map<TopicPartition, OffsetAndMetadata> committed = kafka.admin().listConsumerGroupOffsets(config.groupId())
                .partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS);
        committed.values().forEach(oam -> assertTrue(
                CommitMetadata.sinkData(oam.metadata()).orElse("-").matches("chunk-\\d+|"), oam.metadata()));
        committed.values().forEach(oam -> assertTrue(CommitMetadata.topicId(oam.metadata()).isPresent(), oam.metadata()));

        // a restart resumes after the committed chunks; a second member joining moves partitions by revoke
        TestRecords.produceNumbered(client, topic, 6_000, 6_000);
        ChunkFileSink second = new ChunkFileSink(dir);
        ChunkFileSink third = new ChunkFileSink(dir);
        Engine engine = Engine.startSink(config, second);
        awaitVisible(dir, 8_000);
        Engine joiner = Engine.startSink(config, third);
        awaitVisible(dir, 12_000);
        joiner.close();
        engine.close();
        assertEquals(Health.STOPPED, joiner.health(), "a clean close: " + joiner.failure());
        assertEquals(Health.STOPPED, engine.health(), "a clean close: " + engine.failure());
        assertExactlyOnce(dir, 12_000);
        assertTrue(second.calls.stream().anyMatch(c -> c.startsWith("open ") && !c.endsWith(" -")),
                "reopened partitions get the committed sink data: " + second.calls);
    }

    private static void awaitVisible(Path dir, int count) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (ChunkFileSink.visible(dir).size() < count) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("only " + ChunkFileSink.visible(dir).size() + " of " + count + " visible");
            }
            Thread.sleep(20);
        }
    }

    private static void assertExactlyOnce(Path dir, int count) {
        Map<String, Integer> visible = ChunkFileSink.visible(dir);
        assertEquals(count, visible.size(), "every offset visible");
        List<String> twice = visible.entrySet().stream().filter(e -> e.getValue() > 1).map(Map.Entry::getKey)
                .limit(10).toList();
        assertTrue(twice.isEmpty(), "visible more than once: " + twice);
    }

    /** Each kind of call appears, and no partition is published before it was checkpointed. */
    private static void assertOrdered(List<String> calls, String... kinds) {
        for (String kind : kinds) {
            assertTrue(calls.stream().anyMatch(c -> c.startsWith(kind + " ")), kind + " in " + calls);
        }
        for (int i = 0; i < calls.size(); i++) {
            String c = calls.get(i);
            if (c.startsWith("committed ")) {
                String[] f = c.split(" ");
                String checkpoint = "checkpoint " + f[1] + " " + f[2];
                assertTrue(calls.subList(0, i).stream().anyMatch(x -> x.startsWith(checkpoint)),
                        c + " without an earlier " + checkpoint);
            }
        }
    }
}
