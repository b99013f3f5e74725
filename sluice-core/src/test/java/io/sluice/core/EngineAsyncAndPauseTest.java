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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;

class EngineAsyncAndPauseTest {

    private final KafkaCluster kafka = SharedKafka.cluster();

    @Test
    void asynchronousRecordsKeepKeyOrderAndTheInFlightLimit() throws Exception {
        String topic = Names.unique("async");
        kafka.createTopic(topic, 2);
        int count = 5_000;
        EngineOrderingTest.produceKeyed(kafka, topic, count, 200);
        ScheduledExecutorService timer = Executors.newScheduledThreadPool(2);
        AtomicInteger inFlight = new AtomicInteger();
        AtomicInteger maxInFlight = new AtomicInteger();
        Map<String, Long> lastPerKey = new ConcurrentHashMap<>();
        List<String> violations = new CopyOnWriteArrayList<>();
        Set<String> done = ConcurrentHashMap.newKeySet();
        EngineConfig config = EngineTestSupport.config(kafka, topic).concurrency(50).build();
        try (Engine engine = Engine.startAsync(config, new StringDeserializer(), new StringDeserializer(), record -> {
            maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            long sequence = Long.parseLong(record.value());
            Long previous = lastPerKey.put(record.key(), sequence);
            if (previous != null && previous >= sequence) {
                violations.add(record.key() + ": " + sequence + " after " + previous);
            }
            CompletableFuture<Void> finished = new CompletableFuture<>();
            timer.schedule(() -> {
                inFlight.decrementAndGet();
                done.add(record.value());
                finished.complete(null);
            }, 2, TimeUnit.MILLISECONDS);
            return finished;
        })) {
            await("every record", Duration.ofSeconds(60), () -> done.size() == count);
        } finally {
            timer.shutdownNow();
        }
        assertTrue(violations.isEmpty(), "key order: " + violations);
        assertTrue(maxInFlight.get() <= 50, "in flight at most the concurrency: " + maxInFlight.get());
        assertTrue(maxInFlight.get() > 2, "more in flight than worker threads: " + maxInFlight.get());
    }

    /**
     * A paused partition is not fetched, so the consumer's lag for it stayed where it was at the pause while the topic
     * grew (a mirror's partitions paused through a target outage showed half their real lag): it follows the end the
     * cluster gives for it.
     */
    @Test
    void aPausedPartitionsLagFollowsItsTopic() throws Exception {
        String topic = Names.unique("pause-lag");
        kafka.createTopic(topic, 1);
        TopicPartition tp = new TopicPartition(topic, 0);
        TestRecords.produceNumbered(kafka.clientProperties(Listener.PLAINTEXT), topic, 0, 100);
        Set<String> done = ConcurrentHashMap.newKeySet();
        EngineConfig config = EngineTestSupport.config(kafka, topic).build();
        try (Engine engine = Engine.start(config, new StringDeserializer(), new StringDeserializer(),
                record -> done.add(record.value()))) {
            await("the first records", Duration.ofSeconds(30), () -> done.size() == 100 && lagOf(engine, tp) == 0);
            engine.pause(tp);
            await("the pause", Duration.ofSeconds(30), () -> engine.partitions().stream().anyMatch(PartitionStats::paused));
            TestRecords.produceNumbered(kafka.clientProperties(Listener.PLAINTEXT), topic, 100, 500);
            await("a lag of the 500 records written since the pause", Duration.ofSeconds(30),
                    () -> lagOf(engine, tp) == 500);
            assertEquals(100, done.size(), "nothing read while paused");
        }
    }

    private static long lagOf(Engine engine, TopicPartition tp) {
        return engine.partitions().stream().filter(p -> p.partition().equals(tp)).mapToLong(PartitionStats::lag)
                .findFirst().orElse(-1);
    }

    @Test
    void anOperatorPausesOnePartitionWhileTheOthersFlowAndResumesIt() throws Exception {
        String topic = Names.unique("pause");
        kafka.createTopic(topic, 2);
        Map<Integer, Set<String>> done = new ConcurrentHashMap<>();
        EngineConfig config = EngineTestSupport.config(kafka, topic).build();
        TopicPartition first = new TopicPartition(topic, 0);
        try (Engine engine = Engine.start(config, new StringDeserializer(), new StringDeserializer(),
                record -> done.computeIfAbsent(record.partition(), p -> ConcurrentHashMap.newKeySet()).add(record.value()))) {
            engine.pause(first);
            TestRecords.produceNumbered(kafka.clientProperties(Listener.PLAINTEXT), topic, 0, 2_000);
            long toSecond = EngineTestSupport.endOffsets(kafka, topic, 2).get(new TopicPartition(topic, 1));
            long toFirst = EngineTestSupport.endOffsets(kafka, topic, 2).get(first);
            await("partition 1 flows", Duration.ofSeconds(30),
                    () -> done.getOrDefault(1, Set.of()).size() == toSecond);
            Thread.sleep(500); // partition 0 would have caught up by now, had it not been paused
            assertEquals(0, done.getOrDefault(0, Set.of()).size(), "paused partition 0 delivered nothing");
            engine.resume(first);
            await("partition 0 after resume", Duration.ofSeconds(30),
                    () -> done.getOrDefault(0, Set.of()).size() == toFirst);
        }
    }
}
