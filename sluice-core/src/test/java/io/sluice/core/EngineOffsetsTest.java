package io.sluice.core;

import static io.sluice.core.EngineTestSupport.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.core.commit.TransactionalSource;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import io.sluice.testkit.kafka.TestRecords;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

class EngineOffsetsTest {

    private final KafkaCluster kafka = SharedKafka.cluster();

    @Test
    void aRestartAfterCloseNeitherReplaysCompletedRecordsNorLosesAny() throws Exception {
        String topic = Names.unique("restart");
        kafka.createTopic(topic, 3);
        int count = 30_000;
        TestRecords.produceNumbered(kafka.clientProperties(Listener.PLAINTEXT), topic, 0, count);
        Map<String, AtomicInteger> seen = new ConcurrentHashMap<>();
        EngineConfig config = EngineTestSupport.config(kafka, topic).concurrency(16).ordering(Ordering.UNORDERED).build();

        // first run: stop part-way, with records completed out of order beyond each watermark
        try (Engine first = Engine.start(config, new StringDeserializer(), new StringDeserializer(), record -> {
            seen.computeIfAbsent(record.value(), v -> new AtomicInteger()).incrementAndGet();
            if (record.offset() % 97 == 0) {
                Thread.sleep(2);
            }
        })) {
            await("a part of the records", Duration.ofSeconds(60), () -> seen.size() > count / 3);
        }
        int afterFirst = seen.size();
        assertTrue(afterFirst < count, "the first run stopped part-way (" + afterFirst + ")");
        boolean mapUsed = EngineTestSupport.committed(kafka, config.groupId()).values().stream()
                .anyMatch(oam -> !oam.metadata().isEmpty());

        try (Engine second = Engine.start(config, new StringDeserializer(), new StringDeserializer(),
                record -> seen.computeIfAbsent(record.value(), v -> new AtomicInteger()).incrementAndGet())) {
            await("every record", Duration.ofSeconds(60), () -> seen.size() == count);
        }
        List<String> twice = seen.entrySet().stream().filter(e -> e.getValue().get() > 1).map(Map.Entry::getKey)
                .limit(10).toList();
        assertTrue(twice.isEmpty(), "processed twice after a clean close: " + twice + " (completion map used: "
                + mapUsed + ")");
    }

    @Test
    void oneStuckRecordBoundsWhatRunsKeepsTheMetadataSmallAndARestartReplaysNothingCompleted() throws Exception {
        String topic = Names.unique("stuck");
        kafka.createTopic(topic, 1);
        TestRecords.produceNumbered(kafka.clientProperties(Listener.PLAINTEXT), topic, 0, 100_000);
        CountDownLatch release = new CountDownLatch(1);
        Map<Long, AtomicInteger> processed = new ConcurrentHashMap<>();
        EngineConfig config = EngineTestSupport.config(kafka, topic).ordering(Ordering.UNORDERED).concurrency(8)
                .drainTimeout(Duration.ofSeconds(2)).build();
        Engine first = Engine.start(config, new StringDeserializer(), new StringDeserializer(), record -> {
            if (record.offset() == 10) {
                release.await();
            }
            processed.computeIfAbsent(record.offset(), o -> new AtomicInteger()).incrementAndGet();
        });
        // at most a window from the stuck offset 10 on (less the stuck record itself), plus the ten before it; at
        // least a window from offset 0, depending on whether the watermark reached 10 before dispatch stopped
        int atMost = 10 + config.window() - 1;
        int atLeast = config.window() - 1;
        await("the window fills", Duration.ofSeconds(30), () -> processed.size() >= atLeast,
                () -> "(processed " + processed.size() + ")");
        await("a commit at the stuck record", Duration.ofSeconds(10), () -> committedOffset(config, topic) == 10,
                () -> "(committed " + committedOffset(config, topic) + ")");
        OffsetAndMetadata committed = EngineTestSupport.committed(kafka, config.groupId()).get(new TopicPartition(topic, 0));
        assertTrue(committed.metadata().length() < 100, "a run-length map: " + committed.metadata());
        Thread.sleep(300); // a window's worth more would have run by now if the window did not hold
        assertTrue(processed.size() <= atMost, "nothing beyond the window ran: " + processed.size());
        first.close();
        release.countDown();

        try (Engine second = Engine.start(config, new StringDeserializer(), new StringDeserializer(),
                record -> processed.computeIfAbsent(record.offset(), o -> new AtomicInteger()).incrementAndGet())) {
            await("every record", Duration.ofSeconds(60), () -> processed.size() == 100_000);
        }
        long twice = processed.values().stream().filter(n -> n.get() > 1).count();
        assertEquals(0, twice, "records processed twice");
        assertEquals(1, processed.get(10L).get(), "the stuck record ran once, after the restart");
    }

    @Test
    void recordsDeletedBeforeTheyWereProcessedFailTheRestartNamingTheLostRange() throws Exception {
        String topic = Names.unique("retention");
        kafka.createTopic(topic, 1);
        Map<String, Object> client = kafka.clientProperties(Listener.PLAINTEXT);
        TestRecords.produceNumbered(client, topic, 0, 200);
        EngineConfig config = EngineTestSupport.config(kafka, topic).build();
        AtomicInteger done = new AtomicInteger(EngineTestSupport.processUntil(config, 200));
        TestRecords.produceNumbered(client, topic, 200, 800);
        // what retention does to an unconsumed backlog: the log start moves past records nobody processed
        kafka.admin().deleteRecords(Map.of(new TopicPartition(topic, 0), RecordsToDelete.beforeOffset(600)))
                .all().get(30, TimeUnit.SECONDS);

        String message = EngineTestSupport.failureMessage(config, done);
        assertTrue(message.contains(topic + "-0: offsets 200 to 599 were deleted"), message);
        assertEquals(200, done.get(), "nothing processed after the loss");
    }

    /**
     * STOP_PARTITION: the partition whose records were deleted stops where the loss begins, the other goes on (records
     * produced after the stop are processed too), and the engine, closed, ends failed naming the loss.
     */
    @Test
    void recordsDeletedInOnePartitionStopItAloneAndTheClosedEngineFailsNamingTheLoss() throws Exception {
        String topic = twoPartitionsOf100("stop-partition");
        var registry = new io.micrometer.core.instrument.simple.SimpleMeterRegistry();
        EngineConfig config = EngineTestSupport.config(kafka, topic).outOfRangePolicy(OutOfRangePolicy.STOP_PARTITION)
                .meterRegistry(registry).build();
        assertEquals(200, EngineTestSupport.processUntil(config, 200));
        for (int p = 0; p < 2; p++) {
            EngineTestSupport.produceNumbers(kafka, topic, p, 100, 100);
        }
        TopicPartition p0 = new TopicPartition(topic, 0);
        kafka.admin().deleteRecords(Map.of(p0, RecordsToDelete.beforeOffset(150))).all().get(30, TimeUnit.SECONDS);

        Map<Integer, AtomicInteger> done = new ConcurrentHashMap<>(Map.of(0, new AtomicInteger(),
                1, new AtomicInteger()));
        Engine engine = Engine.start(config, new StringDeserializer(), new StringDeserializer(),
                record -> done.get(record.partition()).incrementAndGet());
        try {
            await("partition 0 stopped at its gap", Duration.ofSeconds(30),
                    () -> engine.partitionsStoppedAtGap().containsKey(p0), engine::partitionsStoppedAtGap);
            assertTrue(engine.partitionsStoppedAtGap().get(p0).contains(topic + "-0: offsets 100 to 149 were deleted"),
                    engine.partitionsStoppedAtGap().toString());
            EngineTestSupport.produceNumbers(kafka, topic, 1, 200, 50);
            await("partition 1 goes on, past what came after the stop", Duration.ofSeconds(30),
                    () -> done.get(1).get() == 150, () -> done);
            assertEquals(Health.RUNNING, engine.health(), "one partition's loss does not stop the others");
            assertEquals(1.0, registry.get("sluice.partitions.stopped.at.gap").gauge().value(), "the gauge to alert on");
        } finally {
            engine.close();
        }
        assertEquals(Health.FAILED, engine.health(), "the loss is never a clean stop");
        assertTrue(engine.failure().orElseThrow() instanceof RecordsLostException lost
                && lost.lost().contains(topic + "-0: offsets 100 to 149 were deleted"), engine.failure().toString());
        assertEquals(0, done.get(0).get(), "nothing of partition 0 past the gap");
        Map<TopicPartition, OffsetAndMetadata> committed = EngineTestSupport.committed(kafka, config.groupId());
        assertEquals(100, committed.get(p0).offset(), "its progress stays where the loss begins");
        assertEquals(250, committed.get(new TopicPartition(topic, 1)).offset());
    }

    /**
     * STOP_PARTITION, a run until the end: a partition whose commit was made for another topic of the same name stops,
     * keeping that commit as it was (never rewritten as the new topic's), and the run ends once the other is done.
     */
    @Test
    void aBoundedRunEndsWhenTheOtherPartitionsAreDoneAndKeepsTheStoppedOnesCommit() throws Exception {
        String topic = twoPartitionsOf100("stop-partition-bounded");
        EngineConfig config = EngineTestSupport.config(kafka, topic).outOfRangePolicy(OutOfRangePolicy.STOP_PARTITION)
                .untilEnd(true).commitInterval(Duration.ofMillis(100)).build();
        TopicPartition p0 = new TopicPartition(topic, 0);
        OffsetAndMetadata foreign = new OffsetAndMetadata(40, "sluice1:" + org.apache.kafka.common.Uuid.randomUuid()
                + ":");
        kafka.admin().alterConsumerGroupOffsets(config.groupId(), Map.of(p0, foreign)).all().get(30, TimeUnit.SECONDS);

        Map<Integer, AtomicInteger> done = new ConcurrentHashMap<>(Map.of(0, new AtomicInteger(),
                1, new AtomicInteger()));
        Engine engine = Engine.start(config, new StringDeserializer(), new StringDeserializer(),
                record -> done.get(record.partition()).incrementAndGet());
        try {
            assertTrue(engine.awaitTermination(Duration.ofSeconds(60)), "the run ends by itself");
        } finally {
            engine.close();
        }
        assertEquals(Health.FAILED, engine.health());
        String lost = ((RecordsLostException) engine.failure().orElseThrow()).lost();
        assertTrue(lost.contains("deleted and created again") && lost.contains(topic + "-0"), lost);
        assertEquals(Map.of(0, 0, 1, 100), Map.of(0, done.get(0).get(), 1, done.get(1).get()));
        Map<TopicPartition, OffsetAndMetadata> committed = EngineTestSupport.committed(kafka, config.groupId());
        assertEquals(foreign, committed.get(p0), "the stopped partition's commit is the one it was");
        assertEquals(100, committed.get(new TopicPartition(topic, 1)).offset());
    }

    /**
     * A bounded run whose partition stops at a gap still finishes what it read before the gap and commits up to it:
     * it ended at once, the drain left the queued records unstarted, and those may be gone from the source already.
     */
    @Test
    void aBoundedRunFinishesWhatItReadBeforeAGapAndCommitsUpToIt() throws Exception {
        String topic = Names.unique("stop-partition-read");
        kafka.createTopic(topic, 1);
        EngineTestSupport.produceNumbers(kafka, topic, 0, 0, 1_000);
        EngineConfig config = EngineTestSupport.config(kafka, topic).outOfRangePolicy(OutOfRangePolicy.STOP_PARTITION)
                .untilEnd(true).ordering(Ordering.PARTITION).window(64)
                .consumerProperty(org.apache.kafka.clients.consumer.ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 10).build();
        CountDownLatch deleted = new CountDownLatch(1);
        AtomicInteger done = new AtomicInteger();
        Engine engine = Engine.start(config, new StringDeserializer(), new StringDeserializer(), record -> {
            if (record.offset() == 0) {
                deleted.await(); // the records after those read are deleted meanwhile
            }
            Thread.sleep(20); // one at a time, slowly: what was read is still queued when the gap is found
            done.incrementAndGet();
        });
        try {
            await("records read ahead of the first", Duration.ofSeconds(30), () -> engine.partitions().stream()
                    .anyMatch(p -> p.watermarkGap() > 1), engine::partitions);
            TopicPartition p0 = new TopicPartition(topic, 0);
            kafka.admin().deleteRecords(Map.of(p0, RecordsToDelete.beforeOffset(900))).all().get(30, TimeUnit.SECONDS);
            deleted.countDown();
            assertTrue(engine.awaitTermination(Duration.ofSeconds(60)), "the run ends by itself");
        } finally {
            deleted.countDown();
            engine.close();
        }
        String lost = ((RecordsLostException) engine.failure().orElseThrow()).lost();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("offsets (\\d+) to 899 were deleted").matcher(lost);
        assertTrue(m.find(), lost);
        long gapStart = Long.parseLong(m.group(1));
        assertTrue(gapStart > 1, "records were read before the gap: " + lost);
        assertEquals(gapStart, done.get(), "every record read before the gap is done");
        assertEquals(gapStart, EngineTestSupport.committed(kafka, config.groupId()).get(new TopicPartition(topic, 0))
                .offset(), "and committed");
    }

    /** A new topic of two partitions, each holding records 0 to 99. */
    private String twoPartitionsOf100(String name) {
        String topic = Names.unique(name);
        kafka.createTopic(topic, 2);
        for (int p = 0; p < 2; p++) {
            EngineTestSupport.produceNumbers(kafka, topic, p, 0, 100);
        }
        return topic;
    }

    @Test
    void aTopicDeletedAndCreatedAgainStartsFromItsBeginning() throws Exception {
        String topic = Names.unique("recreated");
        kafka.createTopic(topic, 1);
        Map<String, Object> client = kafka.clientProperties(Listener.PLAINTEXT);
        TestRecords.produceNumbered(client, topic, 0, 100);
        EngineConfig config = EngineTestSupport.config(kafka, topic).build();
        assertEquals(100, EngineTestSupport.processUntil(config, 100));
        kafka.admin().deleteTopics(List.of(topic)).all().get(30, TimeUnit.SECONDS);
        await("the topic gone", Duration.ofSeconds(30), () -> {
            try {
                return !kafka.admin().listTopics().names().get().contains(topic);
            } catch (Exception e) {
                return false;
            }
        });
        kafka.createTopic(topic, 1);
        // more records than the old commit's offset: applying it would skip the first 100 silently
        TestRecords.produceNumbered(client, topic, 0, 300);
        assertEquals(300, EngineTestSupport.processUntil(config, 300), "the new topic from its start, not from 100");
    }

    @Test
    void aCommitMadeForAnotherTopicOfTheSameNameFailsLoudly() throws Exception {
        String topic = Names.unique("foreign-commit");
        kafka.createTopic(topic, 1);
        TestRecords.produceNumbered(kafka.clientProperties(Listener.PLAINTEXT), topic, 0, 300);
        EngineConfig config = EngineTestSupport.config(kafka, topic).build();
        // as offsets restored from a backup or copied from another cluster would be: made for a different topic ID
        kafka.admin().alterConsumerGroupOffsets(config.groupId(), Map.of(new TopicPartition(topic, 0),
                new OffsetAndMetadata(100, "sluice1:" + org.apache.kafka.common.Uuid.randomUuid() + ":")))
                .all().get(30, TimeUnit.SECONDS);
        AtomicInteger done = new AtomicInteger();
        String message = EngineTestSupport.failureMessage(config, done);
        assertTrue(message.contains("deleted and created again") && message.contains(topic + "-0"), message);
        assertEquals(0, done.get(), "nothing processed against a commit of another topic");

        EngineConfig restart = EngineTestSupport.config(kafka, topic).groupId(config.groupId())
                .outOfRangePolicy(OutOfRangePolicy.EARLIEST).build();
        try (Engine again = Engine.start(restart, new StringDeserializer(), new StringDeserializer(),
                record -> done.incrementAndGet())) {
            await("the topic from its start", Duration.ofSeconds(30), () -> done.get() == 300);
        }
    }

    @Test
    void aCommittedOffsetBeyondTheLogEndFailsLoudly() throws Exception {
        String topic = Names.unique("beyond-end");
        kafka.createTopic(topic, 1);
        TestRecords.produceNumbered(kafka.clientProperties(Listener.PLAINTEXT), topic, 0, 300);
        EngineConfig config = EngineTestSupport.config(kafka, topic).build();
        // a commit from another tool, past the end: the log was truncated or the offsets belong elsewhere
        kafka.admin().alterConsumerGroupOffsets(config.groupId(), Map.of(new TopicPartition(topic, 0),
                new OffsetAndMetadata(1_000))).all().get(30, TimeUnit.SECONDS);
        AtomicInteger done = new AtomicInteger();
        String message = EngineTestSupport.failureMessage(config, done);
        assertTrue(message.contains("the position 1000 is beyond the end of the log (300)"), message);
        // not "set the policy to EARLIEST or LATEST": those go on only forward, and failed here too (a review)
        assertTrue(message.contains("Reset the group's offsets of these partitions to where the log should be read "
                + "from"), message);
        assertEquals(0, done.get());

        // the policy that continues from the log's start cannot go back on a position: it failed inside the engine
        // ("offset 0 dispatched after 1000", a review); now in words, with the way on
        EngineConfig earliest = EngineTestSupport.config(kafka, topic).groupId(config.groupId())
                .outOfRangePolicy(OutOfRangePolicy.EARLIEST).build();
        String back = EngineTestSupport.failureMessage(earliest, done);
        assertTrue(back.contains("the EARLIEST policy continues only forward, and " + topic + "-0 would go back from "
                + "1000 to 0. Reset the group's offsets of these partitions"), back);
        assertEquals(0, done.get());
    }

    @Test
    void onlyCommittedTransactionsAreProcessedAndTheWatermarkReachesTheLogEnd() throws Exception {
        String topic = Names.unique("transactions");
        kafka.createTopic(topic, 1);
        Map<String, Object> props = new HashMap<>(kafka.clientProperties(Listener.PLAINTEXT));
        props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, Names.unique("tx"));
        try (var producer = new KafkaProducer<>(props, new StringSerializer(), new StringSerializer())) {
            producer.initTransactions();
            for (int t = 0; t < 10; t++) {
                producer.beginTransaction();
                for (int i = 0; i < 50; i++) {
                    producer.send(new ProducerRecord<>(topic, "t" + t, (t % 2 == 0 ? "committed-" : "aborted-") + t + "-" + i));
                }
                producer.flush();
                if (t % 2 == 0) {
                    producer.commitTransaction();
                } else {
                    producer.abortTransaction();
                }
            }
        }
        Set<String> seen = ConcurrentHashMap.newKeySet();
        EngineConfig config = EngineTestSupport.config(kafka, topic).commitInterval(Duration.ofMillis(100)).build();
        long end = settledEnd(new TopicPartition(topic, 0));
        try (Engine engine = Engine.start(config, new StringDeserializer(), new StringDeserializer(),
                record -> seen.add(record.value()))) {
            await("the watermark at the log end, past the last marker", Duration.ofSeconds(30),
                    () -> committedOffset(config, topic) == end,
                    () -> "(committed " + committedOffset(config, topic) + ", end " + end + ", processed " + seen.size()
                            + ", " + engine.stats() + ")");
        }
        assertEquals(250, seen.size());
        assertTrue(seen.stream().allMatch(v -> v.startsWith("committed-")), "no aborted record processed");
    }

    /** The log end once the last transaction's marker is written ({@link TransactionalSource#settledEnd}). */
    private long settledEnd(TopicPartition tp) throws Exception {
        return TransactionalSource.settledEnd(kafka, tp);
    }

    private long committedOffset(EngineConfig config, String topic) {
        try {
            OffsetAndMetadata c = EngineTestSupport.committed(kafka, config.groupId()).get(new TopicPartition(topic, 0));
            return c == null ? -1 : c.offset();
        } catch (Exception e) {
            return -1;
        }
    }
}
