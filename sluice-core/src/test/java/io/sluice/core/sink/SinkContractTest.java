package io.sluice.core.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.core.Engine;
import io.sluice.core.EngineConfig;
import io.sluice.core.Health;
import io.sluice.core.commit.TransactionalSource;
import io.sluice.core.wire.CommitMetadata;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import io.sluice.testkit.TestDirs;
import io.sluice.testkit.kafka.TestRecords;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
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
        EngineConfig config = config(topic).build();

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

    @Test
    void aBoundedRunOverTransactionsCommitsEveryPartitionAtItsLogEndPastTheLastMarkerAndStops() throws Exception {
        String topic = Names.unique("sink-tx");
        kafka.createTopic(topic, 3);
        Map<TopicPartition, Long> ends = new HashMap<>();
        try (TransactionalSource source = new TransactionalSource(kafka)) {
            // partition 0 ends in an abort marker, partition 1 in a commit marker; partition 2 holds no record to read
            source.transaction(topic, 0, "kept-0", 60, true);
            source.transaction(topic, 0, "aborted-0", 5, false);
            source.transaction(topic, 1, "aborted-1", 5, false);
            source.transaction(topic, 1, "kept-1", 40, true);
            source.transaction(topic, 2, "aborted-2", 8, false);
            for (int p = 0; p < 3; p++) {
                TopicPartition tp = new TopicPartition(topic, p);
                ends.put(tp, source.settledEnd(tp));
            }
        }
        Path dir = TestDirs.newDir("chunk-sink-tx");
        EngineConfig config = config(topic).untilEnd(true).build();

        Engine engine = Engine.startSink(config, new ChunkFileSink(dir));
        assertTrue(engine.awaitTermination(Duration.ofSeconds(60)), "the run stops by itself: " + engine.partitions());

        assertEquals(Health.STOPPED, engine.health(), () -> "failed: " + engine.failure());
        assertExactlyOnce(dir, 100);
        Map<TopicPartition, Long> committed = new HashMap<>();
        kafka.admin().listConsumerGroupOffsets(config.groupId()).partitionsToOffsetAndMetadata()
                .get(30, TimeUnit.SECONDS).forEach((tp, oam) -> committed.put(tp, oam.offset()));
        assertEquals(ends, committed, "each partition committed at its log end, where nothing is left to read");
    }

    @Test
    void aTopicPatternPicksUpATopicCreatedWhileTheEngineRuns() throws Exception {
        String prefix = Names.unique("sink-pattern");
        kafka.createTopic(prefix + "-a", 2);
        Map<String, Object> client = kafka.clientProperties(Listener.PLAINTEXT);
        TestRecords.produceNumbered(client, prefix + "-a", 0, 300);
        Path dir = TestDirs.newDir("chunk-sink-pattern");
        EngineConfig config = config(null)
                .topicPattern(Pattern.compile(Pattern.quote(prefix) + "-.*"))
                // how often the consumer looks for new topics that match: 5 minutes by default
                .consumerProperty(ConsumerConfig.METADATA_MAX_AGE_CONFIG, 500)
                .build();

        try (Engine engine = Engine.startSink(config, new ChunkFileSink(dir))) {
            awaitVisible(dir, 300);
            kafka.createTopic(prefix + "-b", 3);
            TestRecords.produceNumbered(client, prefix + "-b", 300, 200);
            awaitVisible(dir, 500);
        }

        assertExactlyOnce(dir, 500);
        Map<TopicPartition, OffsetAndMetadata> committed = kafka.admin().listConsumerGroupOffsets(config.groupId())
                .partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS);
        assertEquals(5, committed.size(), "the partitions of both topics committed: " + committed);
        assertEquals(200, committed.entrySet().stream().filter(e -> e.getKey().topic().equals(prefix + "-b"))
                .mapToLong(e -> e.getValue().offset()).sum(), "the new topic's records, all committed");
    }

    /** A sink engine on a fresh group; {@code topic} null to choose the topics otherwise. */
    private EngineConfig.Builder config(String topic) {
        EngineConfig.Builder b = EngineConfig.builder()
                .consumerProperties(kafka.clientProperties(Listener.PLAINTEXT))
                .groupId(Names.unique("sink-group"))
                .consumerProperty(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, 3_000)
                .consumerProperty(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, 500)
                .commitInterval(Duration.ofMillis(200))
                .drainTimeout(Duration.ofSeconds(10));
        return topic == null ? b : b.topics(topic);
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
