package io.sluice.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
