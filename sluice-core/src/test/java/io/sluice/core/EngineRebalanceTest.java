package io.sluice.core;

import static io.sluice.core.EngineTestSupport.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import io.sluice.testkit.kafka.TestRecords;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;

class EngineRebalanceTest {

    private final KafkaCluster kafka = SharedKafka.cluster();

    @Test
    void membersJoiningAndLeavingWhileProcessingLoseNothingAndRepeatNothing() throws Exception {
        String topic = Names.unique("join-leave");
        kafka.createTopic(topic, 6);
        int perRound = 10_000;
        int count = 4 * perRound;
        TestRecords.produceNumbered(kafka.clientProperties(Listener.PLAINTEXT), topic, 0, perRound);
        Map<String, AtomicInteger> seen = new ConcurrentHashMap<>();
        Map<String, Set<Integer>> partitionsByMember = new ConcurrentHashMap<>();
        List<String> visitorStats = new CopyOnWriteArrayList<>();
        EngineConfig config = EngineTestSupport.config(kafka, topic).concurrency(8).build();

        try (Engine steady = Engine.start(config, new StringDeserializer(), new StringDeserializer(),
                record -> handle("steady", record.value(), record.partition(), seen, partitionsByMember))) {
            for (int round = 0; round < 3; round++) {
                // Each visitor joins only once the steady member holds every partition, so its share is taken from
                // the steady member (a revocation) and not handed over from the visitor before it: under load the
                // previous one's leave and this one's join could otherwise fall into one rebalance.
                await("the steady member holds every partition", Duration.ofSeconds(30),
                        () -> steady.partitions().size() == 6, steady::partitions);
                String member = "visitor-" + round;
                LongAdder visitorDone = new LongAdder();
                try (Engine visitor = Engine.start(config, new StringDeserializer(), new StringDeserializer(), record -> {
                    handle(member, record.value(), record.partition(), seen, partitionsByMember);
                    visitorDone.increment();
                })) {
                    await(member + " takes over partitions", Duration.ofSeconds(30),
                            () -> !visitor.partitions().isEmpty());
                    // each knows how many the topic has beside the ones it holds (a progress line says "3 of 6")
                    await("both members know the topic's partitions", Duration.ofSeconds(10),
                            () -> steady.subscribedPartitions().equals(java.util.OptionalInt.of(6))
                                    && visitor.subscribedPartitions().equals(java.util.OptionalInt.of(6)),
                            () -> steady.subscribedPartitions() + " / " + visitor.subscribedPartitions());
                    // produced while both members share the partitions: the visitor has records of its own to
                    // process, however fast the steady member got through the earlier ones
                    TestRecords.produceNumbered(kafka.clientProperties(Listener.PLAINTEXT), topic,
                            (round + 1L) * perRound, perRound);
                    await(member + " processes", Duration.ofSeconds(30), () -> visitorDone.sum() >= 500);
                    visitorStats.add(member + ": " + visitor.stats());
                }
                assertEquals(Health.RUNNING, steady.health());
            }
            await("every record", Duration.ofSeconds(60), () -> seen.size() == count,
                    () -> "(" + seen.size() + " of " + count + ")");
            EngineStats stats = steady.stats();
            assertTrue(stats.revoked() > 0, "the steady member gave partitions away: " + stats);
            assertEquals(0, stats.lost(), "no partition was lost without a commit");
        }
        List<String> twice = seen.entrySet().stream().filter(e -> e.getValue().get() > 1).map(Map.Entry::getKey)
                .limit(10).toList();
        assertTrue(twice.isEmpty(), "clean joins and leaves repeat nothing: " + twice + "; " + visitorStats);
        assertTrue(partitionsByMember.keySet().stream().filter(m -> m.startsWith("visitor")).count() >= 1,
                "visitors got partitions: " + partitionsByMember);
    }

    /**
     * A member whose join the coordinator holds (an earlier member holds every partition and has not rejoined, as one
     * killed with kill -9 until its session ends) stops at once: it holds nothing to commit, and its consumer's close
     * waited for the held join for the whole drain timeout (a new user's run: 30 s for "0 records done").
     */
    @Test
    void aMemberHoldingNoPartitionStopsWithoutWaitingForItsHeldJoin() throws Exception {
        String topic = Names.unique("held-join");
        kafka.createTopic(topic, 2);
        EngineConfig config = EngineTestSupport.config(kafka, topic).drainTimeout(Duration.ofSeconds(20)).build();
        Map<String, Object> props = new java.util.HashMap<>(kafka.clientProperties(Listener.PLAINTEXT));
        props.put(ConsumerConfig.GROUP_ID_CONFIG, config.groupId());
        props.put(ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG, 60_000); // how long a rebalance waits for its rejoin
        try (var holder = new org.apache.kafka.clients.consumer.KafkaConsumer<>(props,
                new StringDeserializer(), new StringDeserializer())) {
            holder.subscribe(List.of(topic));
            await("the holder is assigned both partitions", Duration.ofSeconds(30), () -> {
                holder.poll(Duration.ofMillis(100));
                return holder.assignment().size() == 2;
            });
            // the holder polls no more: its heartbeats keep it a member, and the rebalance a join starts waits for it
            Engine late = Engine.start(config, new StringDeserializer(), new StringDeserializer(), record -> { });
            await("the late member's join is held", Duration.ofSeconds(30), () -> groupState(config.groupId())
                    == org.apache.kafka.common.GroupState.PREPARING_REBALANCE);
            long asked = System.nanoTime();
            late.close();
            long seconds = java.util.concurrent.TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - asked);
            assertTrue(late.partitions().isEmpty());
            assertTrue(seconds < 10, "closed after " + seconds + " s, with nothing to commit (drain timeout 20 s)");
        }
    }

    private org.apache.kafka.common.GroupState groupState(String group) {
        try {
            return kafka.admin().describeConsumerGroups(List.of(group)).all().get(10,
                    java.util.concurrent.TimeUnit.SECONDS).get(group).groupState();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void theKip848ConsumerGroupProtocolSharesTheWorkToo() throws Exception {
        String topic = Names.unique("kip848");
        kafka.createTopic(topic, 4);
        int count = 8_000;
        Map<String, AtomicInteger> seen = new ConcurrentHashMap<>();
        Map<String, Set<Integer>> partitionsByMember = new ConcurrentHashMap<>();
        EngineConfig config = EngineConfig.builder()
                .consumerProperties(kafka.clientProperties(Listener.PLAINTEXT))
                .groupId(Names.unique("kip848-group"))
                .consumerProperty(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "consumer")
                .topics(topic)
                .concurrency(8)
                .drainTimeout(Duration.ofSeconds(10))
                .build();
        try (Engine first = Engine.start(config, new StringDeserializer(), new StringDeserializer(),
                record -> handle("first", record.value(), record.partition(), seen, partitionsByMember));
             Engine second = Engine.start(config, new StringDeserializer(), new StringDeserializer(),
                record -> handle("second", record.value(), record.partition(), seen, partitionsByMember))) {
            await("the broker shares the partitions between both members", Duration.ofSeconds(30),
                    () -> !first.partitions().isEmpty() && !second.partitions().isEmpty()
                            && first.partitions().size() + second.partitions().size() == 4,
                    () -> first.partitions() + " / " + second.partitions());
            await("each member knows the topic's partitions", Duration.ofSeconds(10),
                    () -> first.subscribedPartitions().equals(java.util.OptionalInt.of(4))
                            && second.subscribedPartitions().equals(java.util.OptionalInt.of(4)),
                    () -> first.subscribedPartitions() + " / " + second.subscribedPartitions());
            TestRecords.produceNumbered(kafka.clientProperties(Listener.PLAINTEXT), topic, 0, count);
            await("every record", Duration.ofSeconds(60), () -> seen.size() == count,
                    () -> "(" + seen.size() + " of " + count + ")");
            assertEquals(Health.RUNNING, first.health());
            assertEquals(Health.RUNNING, second.health());
        }
        assertEquals(2, partitionsByMember.size(), "both members got partitions: " + partitionsByMember);
        assertTrue(seen.values().stream().allMatch(n -> n.get() == 1), "each record once");
    }

    @Test
    void aHandlerSlowerThanTheMaxPollIntervalCausesNoRebalance() throws Exception {
        String topic = Names.unique("slow-handler");
        kafka.createTopic(topic, 2);
        TestRecords.produceNumbered(kafka.clientProperties(Listener.PLAINTEXT), topic, 0, 20);
        LongAdder done = new LongAdder();
        EngineConfig config = EngineTestSupport.config(kafka, topic).ordering(Ordering.PARTITION).concurrency(2)
                .consumerProperty(ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG, 1_000)
                .processingTimeout(Duration.ofSeconds(30))
                .build();
        try (Engine engine = Engine.start(config, new StringDeserializer(), new StringDeserializer(), record -> {
            if (record.offset() < 3) {
                Thread.sleep(1_500); // each longer than max.poll.interval.ms
            }
            done.increment();
        })) {
            await("every record", Duration.ofSeconds(60), () -> done.sum() == 20);
            EngineStats stats = engine.stats();
            assertEquals(0, stats.revoked() + stats.lost(), "no rebalance: " + stats);
            assertEquals(Health.RUNNING, engine.health());
        }
    }

    private static void handle(String member, String value, int partition, Map<String, AtomicInteger> seen,
            Map<String, Set<Integer>> partitionsByMember) throws InterruptedException {
        seen.computeIfAbsent(value, v -> new AtomicInteger()).incrementAndGet();
        partitionsByMember.computeIfAbsent(member, m -> ConcurrentHashMap.newKeySet()).add(partition);
        Thread.sleep(0, 200_000);
    }
}
