package io.sluice.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import io.sluice.testkit.kafka.TestRecords;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;

/** Bounded runs: a start timestamp, the end offsets seen at start, and a read-rate limit. */
class BoundedRunTest {

    private final KafkaCluster kafka = SharedKafka.cluster();

    @Test
    void aStartTimestampMovesUncommittedPartitionsOrEveryCommitBeforeItAndTheRunStopsAtTheEnd() throws Exception {
        String topic = Names.unique("from-time");
        kafka.createTopic(topic, 2);
        // record i goes to partition i % 2, one second apart: offsets 0..99 in each partition
        long base = System.currentTimeMillis() - 3_600_000;
        try (var producer = new KafkaProducer<>(producerProperties(), new ByteArraySerializer(),
                new ByteArraySerializer())) {
            for (int i = 0; i < 200; i++) {
                producer.send(new ProducerRecord<>(topic, i % 2, base + i * 1_000L, null, ("v" + i).getBytes()));
            }
            producer.flush();
        }
        // records 120 and on: offset 60 and on in both partitions
        Instant from = Instant.ofEpochMilli(base + 120_000);
        TopicPartition p0 = new TopicPartition(topic, 0);
        TopicPartition p1 = new TopicPartition(topic, 1);

        // UNCOMMITTED: the committed partition resumes from its commit, the other starts at the timestamp
        EngineConfig uncommitted = EngineTestSupport.config(kafka, topic).startFrom(from).untilEnd(true).build();
        commit(uncommitted.groupId(), Map.of(p0, 10L));
        assertEquals(union(offsets(0, 10, 100), offsets(1, 60, 100)), runToEnd(uncommitted));
        assertEquals(Map.of(p0, 100L, p1, 100L), committedOffsets(uncommitted.groupId()));

        // ALWAYS: a commit before the timestamp is skipped over, one past it stands
        EngineConfig always = EngineTestSupport.config(kafka, topic).startFrom(from, TimestampStart.ALWAYS)
                .untilEnd(true).build();
        commit(always.groupId(), Map.of(p0, 10L, p1, 80L));
        assertEquals(union(offsets(0, 60, 100), offsets(1, 80, 100)), runToEnd(always));
        assertEquals(Map.of(p0, 100L, p1, 100L), committedOffsets(always.groupId()));
    }

    @Test
    void untilEndProcessesExactlyWhatWasThereAtStartCommitsItAndStopsByItself() throws Exception {
        String topic = Names.unique("until-end");
        kafka.createTopic(topic, 3);
        Map<String, Object> client = kafka.clientProperties(Listener.PLAINTEXT);
        TestRecords.produceNumbered(client, topic, 0, 3_000);
        Map<TopicPartition, Long> ends = EngineTestSupport.endOffsets(kafka, topic, 3);
        EngineConfig config = EngineTestSupport.config(kafka, topic).untilEnd(true).concurrency(8).build();
        Map<String, AtomicInteger> seen = new ConcurrentHashMap<>();
        Engine engine = Engine.start(config, new StringDeserializer(), new StringDeserializer(),
                record -> seen.computeIfAbsent(record.value(), v -> new AtomicInteger()).incrementAndGet());
        try {
            // RUNNING comes after the end offsets are read: what is produced now is past them
            EngineTestSupport.await("the engine running", Duration.ofSeconds(30),
                    () -> engine.health() != Health.STARTING);
            TestRecords.produceNumbered(client, topic, 3_000, 600);
            assertTrue(engine.awaitTermination(Duration.ofSeconds(60)), "the engine stops by itself: "
                    + engine.health() + " " + engine.partitions());
        } finally {
            engine.close();
        }
        assertEquals(Health.STOPPED, engine.health(), () -> String.valueOf(engine.failure()));
        Set<String> expected = IntStream.range(0, 3_000).mapToObj(i -> "v" + i).collect(Collectors.toSet());
        assertEquals(expected, seen.keySet());
        assertTrue(seen.values().stream().allMatch(n -> n.get() == 1), "each record once");
        assertEquals(ends, committedOffsets(config.groupId()));
    }

    @Test
    void untilEndWithATopicPatternReadsTheTopicsThatMatchAtStartUpToTheirEnds() throws Exception {
        String prefix = Names.unique("until-end-pattern");
        Map<String, Object> client = kafka.clientProperties(Listener.PLAINTEXT);
        Map<TopicPartition, Long> ends = new HashMap<>();
        for (int t = 0; t < 2; t++) {
            String topic = prefix + "-" + t;
            kafka.createTopic(topic, 2);
            TestRecords.produceNumbered(client, topic, t * 400, 400);
            ends.putAll(EngineTestSupport.endOffsets(kafka, topic, 2));
        }
        kafka.createTopic(prefix + "x", 1); // does not match: the pattern matches whole names
        TestRecords.produceNumbered(client, prefix + "x", 0, 50);
        EngineConfig config = EngineTestSupport.config(kafka, prefix + "-0")
                .topics() // none named: the pattern says which
                .topicPattern(java.util.regex.Pattern.compile(java.util.regex.Pattern.quote(prefix) + "-.*"))
                .untilEnd(true).build();

        Set<String> done = runToEnd(config, record -> record.value());

        assertEquals(IntStream.range(0, 800).mapToObj(i -> "v" + i).collect(Collectors.toSet()), done,
                "every record of both matching topics");
        assertEquals(ends, committedOffsets(config.groupId()));
    }

    @Test
    void aReadRateLimitHoldsTheAverageRateByPausingWhileTheMemberStaysInItsGroup() throws Exception {
        String topic = Names.unique("rate");
        kafka.createTopic(topic, 2);
        int count = 3_000;
        byte[] value = new byte[1_000];
        Arrays.fill(value, (byte) 'x');
        try (var producer = new KafkaProducer<>(producerProperties(), new ByteArraySerializer(),
                new ByteArraySerializer())) {
            for (int i = 0; i < count; i++) {
                producer.send(new ProducerRecord<>(topic, ("k" + i).getBytes(), value));
            }
            producer.flush();
        }
        long limit = 1024 * 1024;
        EngineConfig config = EngineTestSupport.config(kafka, topic).maxReadBytesPerSecond(limit).untilEnd(true)
                .ordering(Ordering.UNORDERED).build();
        AtomicLong bytes = new AtomicLong();
        AtomicLong first = new AtomicLong();
        AtomicLong last = new AtomicLong();
        List<EngineStats> whileRunning = new ArrayList<>();
        Engine engine = Engine.start(config, new ByteArrayDeserializer(), new ByteArrayDeserializer(), record -> {
            long now = System.nanoTime();
            first.compareAndSet(0, now);
            last.accumulateAndGet(now, Math::max);
            bytes.addAndGet(record.key().length + record.value().length);
        });
        int members = -1;
        try {
            while (!engine.awaitTermination(Duration.ofMillis(20))) {
                if (engine.health() == Health.RUNNING) {
                    whileRunning.add(engine.stats());
                }
                if (members < 0 && bytes.get() > count * 1_000L / 2) {
                    members = kafka.admin().describeConsumerGroups(List.of(config.groupId())).all()
                            .get(30, TimeUnit.SECONDS).get(config.groupId()).members().size();
                }
            }
        } finally {
            engine.close();
        }
        assertEquals(Health.STOPPED, engine.health(), () -> String.valueOf(engine.failure()));
        assertEquals(count * 1_000L + keyBytes(count), bytes.get(), "every record read once");
        double seconds = (last.get() - first.get()) / 1e9;
        // beyond the rate: the bucket (0.1 s) and one fetch (at most 0.25 s of the rate), less than half a second
        double allowed = limit * (seconds + 0.5);
        assertTrue(bytes.get() <= allowed, String.format("read %,d bytes in %.2f s: %.0f bytes/s over a limit of %,d",
                bytes.get(), seconds, bytes.get() / seconds, limit));
        assertEquals(1, members, "one member in the group half-way");
        assertTrue(whileRunning.stream().allMatch(s -> s.revoked() == 0 && s.lost() == 0),
                "no partition revoked or lost while running: the member stayed in its group");
        assertTrue(whileRunning.stream().anyMatch(s -> s.pausedPartitions() > 0), "paused to hold the rate");
    }

    @Test
    void boundsThatCannotWorkAreRefusedWithWhatToDo() {
        EngineConfig.Builder base = EngineConfig.builder().bootstrapServers("localhost:9092").groupId("g").topics("t");
        var slow = assertThrows(IllegalArgumentException.class, () -> base.maxReadBytesPerSecond(512).build());
        assertEquals("the read rate limit must be at least 1024 bytes/s (or 0 for no limit), not 512", slow.getMessage());
        Instant tomorrow = Instant.now().plus(Duration.ofDays(1));
        var future = assertThrows(IllegalArgumentException.class,
                () -> base.maxReadBytesPerSecond(0).startFrom(tomorrow).build());
        assertTrue(future.getMessage().endsWith("is in the future, so no record is that recent; to start at the end "
                + "of the log use startPosition(LATEST)"), future.getMessage());
    }

    private static long keyBytes(int count) {
        return IntStream.range(0, count).mapToLong(i -> ("k" + i).length()).sum();
    }

    private static Map<String, Object> producerProperties() {
        Map<String, Object> props = new HashMap<>(SharedKafka.cluster().clientProperties(Listener.PLAINTEXT));
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        return props;
    }

    /** Runs the engine until it stops by itself, which it must do as STOPPED; returns "partition:offset" done. */
    private static Set<String> runToEnd(EngineConfig config) {
        return runToEnd(config, record -> record.partition() + ":" + record.offset());
    }

    /** As {@link #runToEnd(EngineConfig)}, returning what {@code name} says of each record done. */
    private static Set<String> runToEnd(EngineConfig config,
            java.util.function.Function<org.apache.kafka.clients.consumer.ConsumerRecord<String, String>, String> name) {
        Set<String> done = ConcurrentHashMap.newKeySet();
        Engine engine = Engine.start(config, new StringDeserializer(), new StringDeserializer(),
                record -> done.add(name.apply(record)));
        try {
            assertTrue(engine.awaitTermination(Duration.ofSeconds(60)), "the engine stops by itself: "
                    + engine.health() + " " + engine.partitions());
        } finally {
            engine.close();
        }
        assertEquals(Health.STOPPED, engine.health(), () -> String.valueOf(engine.failure()));
        return new TreeSet<>(done);
    }

    private static Set<String> offsets(int partition, int from, int to) {
        return IntStream.range(from, to).mapToObj(o -> partition + ":" + o).collect(Collectors.toSet());
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> all = new TreeSet<>(a);
        all.addAll(b);
        return all;
    }

    private void commit(String group, Map<TopicPartition, Long> offsets) throws Exception {
        kafka.admin().alterConsumerGroupOffsets(group, offsets.entrySet().stream()
                        .collect(Collectors.toMap(Map.Entry::getKey, e -> new OffsetAndMetadata(e.getValue()))))
                .all().get(30, TimeUnit.SECONDS);
    }

    private Map<TopicPartition, Long> committedOffsets(String group) throws Exception {
        return EngineTestSupport.committed(kafka, group).entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().offset()));
    }
}
