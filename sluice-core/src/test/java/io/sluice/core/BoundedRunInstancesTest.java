package io.sluice.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import io.sluice.testkit.kafka.GroupHolder;
import io.sluice.testkit.kafka.TestRecords;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;

/**
 * Two instances of one bounded run under the default commit point (the source group's offsets, as archives and
 * handlers commit): each learns that the other's partitions are done from the group's committed offsets, which the
 * commit point reads for it ({@code CommitPoint.committedProgress}).
 *
 * <p>Threading: the test thread; the engines run their own, and the handlers count into concurrent maps.
 */
class BoundedRunInstancesTest {

    private static final int PARTITIONS = 4;
    private static final int RECORDS = 2_000;

    private final KafkaCluster kafka = SharedKafka.cluster();

    @Test
    void twoInstancesUntilTheEndSplitThePartitionsBothStopAndEveryRecordIsDoneOnceAndCommitted() throws Exception {
        String topic = Names.unique("two-bounded");
        kafka.createTopic(topic, PARTITIONS);
        Map<String, Object> client = kafka.clientProperties(Listener.PLAINTEXT);
        TestRecords.produceNumbered(client, topic, 0, RECORDS);
        Map<TopicPartition, Long> ends = EngineTestSupport.endOffsets(kafka, topic, PARTITIONS);
        EngineConfig config = EngineTestSupport.config(kafka, topic).untilEnd(true).build();
        Map<String, AtomicInteger> seen = new ConcurrentHashMap<>();
        AtomicInteger firstDid = new AtomicInteger();
        AtomicInteger secondDid = new AtomicInteger();
        // a member that never commits holds every partition first, so that neither instance can end before both own
        // partitions (else the first to join might do everything alone)
        try (GroupHolder holder = new GroupHolder(client, config.groupId(), topic)) {
            holder.pollUntil(() -> holder.held() == PARTITIONS, Duration.ofSeconds(60),
                    "the holder owns every partition");
            try (Engine first = start(config, seen, firstDid); Engine second = start(config, seen, secondDid)) {
                // the holder keeps polling, so that it takes part in the rebalances that give the engines partitions
                holder.pollUntil(() -> !first.partitions().isEmpty() && !second.partitions().isEmpty(),
                        Duration.ofSeconds(60), "both instances own partitions");
                holder.close(); // leaves the group: its partitions go to the two engines, which now split them all
                assertTrue(first.awaitTermination(Duration.ofSeconds(60)), "the first ends: " + first.partitions());
                assertTrue(second.awaitTermination(Duration.ofSeconds(60)), "the second ends: " + second.partitions());
                assertEquals(Health.STOPPED, first.health(), () -> String.valueOf(first.failure()));
                assertEquals(Health.STOPPED, second.health(), () -> String.valueOf(second.failure()));
            }
        }
        assertTrue(firstDid.get() > 0 && secondDid.get() > 0, "both did records: " + firstDid + " / " + secondDid);
        Set<String> expected = IntStream.range(0, RECORDS).mapToObj(i -> "v" + i).collect(Collectors.toSet());
        assertEquals(expected, seen.keySet());
        assertTrue(seen.values().stream().allMatch(n -> n.get() == 1), "each record once");
        Map<TopicPartition, Long> committed = EngineTestSupport.committed(kafka, config.groupId()).entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, e -> offset(e.getValue())));
        assertEquals(ends, committed, "the group's offsets at the end offsets");
    }

    /**
     * Two instances whose sink holds every record until it is told to let go (an archive holds its open files until
     * they roll, by default at 10 minutes): each waited for the other's partitions to be committed, and neither
     * committed its own before its files aged out, so a bounded run of two took its files' maximum age instead of
     * seconds (found by a new user: 612 s against 15 s for one instance).
     */
    @Test
    void twoInstancesWhoseSinkHoldsRecordsUntilTheyRollStillEnd() throws Exception {
        String topic = Names.unique("two-bounded-held");
        kafka.createTopic(topic, PARTITIONS);
        Map<String, Object> client = kafka.clientProperties(Listener.PLAINTEXT);
        TestRecords.produceNumbered(client, topic, 0, RECORDS);
        Map<TopicPartition, Long> ends = EngineTestSupport.endOffsets(kafka, topic, PARTITIONS);
        EngineConfig config = EngineTestSupport.config(kafka, topic).untilEnd(true)
                .commitInterval(Duration.ofMillis(200)).build();
        try (GroupHolder holder = new GroupHolder(client, config.groupId(), topic)) {
            holder.pollUntil(() -> holder.held() == PARTITIONS, Duration.ofSeconds(60),
                    "the holder owns every partition");
            HoldingSink firstSink = new HoldingSink();
            HoldingSink secondSink = new HoldingSink();
            try (Engine first = Engine.startSink(config, firstSink); Engine second = Engine.startSink(config,
                    secondSink)) {
                holder.pollUntil(() -> !first.partitions().isEmpty() && !second.partitions().isEmpty(),
                        Duration.ofSeconds(60), "both instances own partitions");
                holder.close();
                assertTrue(first.awaitTermination(Duration.ofSeconds(60)), "the first ends: " + first.partitions());
                assertTrue(second.awaitTermination(Duration.ofSeconds(60)), "the second ends: " + second.partitions());
                assertEquals(Health.STOPPED, first.health(), () -> String.valueOf(first.failure()));
                assertEquals(Health.STOPPED, second.health(), () -> String.valueOf(second.failure()));
            }
            assertTrue(firstSink.relieved.get() > 0 && secondSink.relieved.get() > 0,
                    "each let go of its partitions at their end: " + firstSink.relieved + " / " + secondSink.relieved);
        }
        Map<TopicPartition, Long> committed = EngineTestSupport.committed(kafka, config.groupId()).entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, e -> offset(e.getValue())));
        assertEquals(ends, committed, "the group's offsets at the end offsets");
    }

    /**
     * Two instances of a bounded run whose partitions all lost records before they were processed, each stopping its
     * own ({@link OutOfRangePolicy#STOP_PARTITION}): each waited for ever for the other's progress, which can never
     * reach the end. Now an instance that stopped a partition ends once its own are done, failed, naming what it
     * stopped (a partition stopped there that moves to another instance stops there too); no commit moves.
     */
    @Test
    void twoInstancesThatStoppedPartitionsAtGapsBothEnd() throws Exception {
        String topic = Names.unique("two-bounded-gaps");
        kafka.createTopic(topic, PARTITIONS);
        Map<String, Object> client = kafka.clientProperties(Listener.PLAINTEXT);
        TestRecords.produceNumbered(client, topic, 0, RECORDS);
        EngineConfig config = EngineTestSupport.config(kafka, topic).untilEnd(true)
                .outOfRangePolicy(OutOfRangePolicy.STOP_PARTITION).build();
        Map<TopicPartition, OffsetAndMetadata> at10 = new java.util.HashMap<>();
        Map<TopicPartition, org.apache.kafka.clients.admin.RecordsToDelete> before20 = new java.util.HashMap<>();
        for (int p = 0; p < PARTITIONS; p++) {
            at10.put(new TopicPartition(topic, p), new OffsetAndMetadata(10));
            before20.put(new TopicPartition(topic, p), org.apache.kafka.clients.admin.RecordsToDelete.beforeOffset(20));
        }
        kafka.admin().alterConsumerGroupOffsets(config.groupId(), at10).all().get(30, TimeUnit.SECONDS);
        kafka.admin().deleteRecords(before20).all().get(30, TimeUnit.SECONDS);
        Set<TopicPartition> named = ConcurrentHashMap.newKeySet();
        try (GroupHolder holder = new GroupHolder(client, config.groupId(), topic)) {
            holder.pollUntil(() -> holder.held() == PARTITIONS, Duration.ofSeconds(60),
                    "the holder owns every partition");
            try (Engine first = start(config, new ConcurrentHashMap<>(), new AtomicInteger());
                    Engine second = start(config, new ConcurrentHashMap<>(), new AtomicInteger())) {
                holder.pollUntil(() -> !first.partitions().isEmpty() && !second.partitions().isEmpty()
                        || first.health() == Health.FAILED || second.health() == Health.FAILED,
                        Duration.ofSeconds(60), "both instances own partitions, or one ended");
                holder.close();
                for (Engine engine : java.util.List.of(first, second)) {
                    assertTrue(engine.awaitTermination(Duration.ofSeconds(60)), "an instance ends: "
                            + engine.partitionsStoppedAtGap());
                    assertEquals(Health.FAILED, engine.health());
                    RecordsLostException lost = (RecordsLostException) engine.failure().orElseThrow();
                    int before = named.size();
                    for (int p = 0; p < PARTITIONS; p++) {
                        if (lost.lost().contains(topic + "-" + p + ": offsets 10 to 19 were deleted")) {
                            named.add(new TopicPartition(topic, p));
                        }
                    }
                    assertTrue(named.size() > before || lost.lost().contains("offsets 10 to 19 were deleted"),
                            "the instance names what it stopped: " + lost.lost());
                }
            }
        }
        assertFalse(named.isEmpty());
        Map<TopicPartition, Long> committed = EngineTestSupport.committed(kafka, config.groupId()).entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, e -> offset(e.getValue())));
        assertEquals(Map.of(new TopicPartition(topic, 0), 10L, new TopicPartition(topic, 1), 10L,
                new TopicPartition(topic, 2), 10L, new TopicPartition(topic, 3), 10L), committed,
                "no commit moved past a gap");
    }

    /** Holds every record written until {@link #relieve} or a last checkpoint, as open files wait for their roll. */
    private static final class HoldingSink implements io.sluice.core.sink.Sink {
        private final Map<TopicPartition, Long> written = new ConcurrentHashMap<>();
        private final Map<TopicPartition, Long> released = new ConcurrentHashMap<>();
        final AtomicInteger relieved = new AtomicInteger();

        @Override
        public void open(TopicPartition partition, org.apache.kafka.common.Uuid topicId, long committedOffset,
                java.util.Optional<String> committedData) {
            written.put(partition, committedOffset);
            released.put(partition, committedOffset);
        }

        @Override
        public void write(org.apache.kafka.clients.consumer.ConsumerRecord<byte[], byte[]> record) {
            written.put(new TopicPartition(record.topic(), record.partition()), record.offset() + 1);
        }

        @Override
        public io.sluice.core.sink.SinkCheckpoint checkpoint(TopicPartition partition, boolean last) {
            if (last) {
                released.put(partition, written.get(partition));
            }
            return new io.sluice.core.sink.SinkCheckpoint(released.get(partition), "");
        }

        @Override
        public void relieve(TopicPartition partition) {
            relieved.incrementAndGet();
            released.put(partition, written.get(partition));
        }

        @Override
        public void committed(TopicPartition partition, io.sluice.core.sink.SinkCheckpoint checkpoint) {
        }

        @Override
        public void notCommitted(TopicPartition partition, io.sluice.core.sink.SinkCheckpoint checkpoint,
                boolean certain) {
        }

        @Override
        public void close(TopicPartition partition, boolean lost) {
        }

        @Override
        public long bufferedBytes(TopicPartition partition) {
            return 0;
        }
    }

    private static Engine start(EngineConfig config, Map<String, AtomicInteger> seen, AtomicInteger did) {
        return Engine.start(config, new StringDeserializer(), new StringDeserializer(), record -> {
            seen.computeIfAbsent(record.value(), v -> new AtomicInteger()).incrementAndGet();
            did.incrementAndGet();
        });
    }

    private static long offset(OffsetAndMetadata committed) {
        return committed == null ? -1 : committed.offset();
    }
}
