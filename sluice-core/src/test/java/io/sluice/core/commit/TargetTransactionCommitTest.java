package io.sluice.core.commit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.core.Engine;
import io.sluice.core.EngineConfig;
import io.sluice.core.Health;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.testkit.kafka.TestRecords;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;

/**
 * A transaction in the target cluster as the commit point: the records a sink copies and the source offsets they
 * came from are committed together, and a member that lost a partition is fenced by Kafka the moment the next owner
 * claims it.
 */
class TargetTransactionCommitTest {

    private final KafkaCluster kafka = SharedKafka.cluster();

    @Test
    void copiesEveryRecordOnceInOrderWithItsSourceOffsetsAndARerunCopiesNothingMore() throws Exception {
        CopiedTopics topics = topics("copy", 1_500);
        Engine first = copyUntilEnd(topics);
        assertEquals(Health.STOPPED, first.health(), () -> "failed: " + first.failure().orElse(null));
        assertTrue(first.stats().commits() > 0, "commits counted");
        topics.assertExactCopy();

        Engine again = copyUntilEnd(topics);
        assertEquals(Health.STOPPED, again.health(), () -> "failed: " + again.failure().orElse(null));
        assertEquals(0, again.stats().consumed(), "a rerun resumes from the progress in the target: nothing to copy");
        topics.assertExactCopy();
    }

    @Test
    void twoInstancesOfABoundedCopyEndOnceEveryPartitionIsCopiedWhoeverCopiedIt() throws Exception {
        CopiedTopics topics = topics("two", 20_000);
        TargetTransactionCommit firstTx = transactions(topics.progressGroup() + "-tx", topics);
        TargetTransactionCommit secondTx = transactions(topics.progressGroup() + "-tx", topics);
        // the same mirror twice: each learns from the progress in the target that the other's partitions are done
        // (the source group never has offsets under this commit point, so asking it would wait for ever)
        try (Engine first = Engine.startSink(config(topics, firstTx).untilEnd(true).build(),
                        new CopySink(firstTx, topics.target()));
                Engine second = Engine.startSink(config(topics, secondTx).untilEnd(true).build(),
                        new CopySink(secondTx, topics.target()))) {
            assertTrue(first.awaitTermination(Duration.ofSeconds(60)) && second.awaitTermination(Duration.ofSeconds(60)),
                    "both end: " + first.stats() + " / " + second.stats());
            assertEquals(Health.STOPPED, first.health(), () -> "failed: " + first.failure().orElse(null));
            assertEquals(Health.STOPPED, second.health(), () -> "failed: " + second.failure().orElse(null));
        }
        topics.assertExactCopy();
    }

    @Test
    void markersAndAbortedRecordsEndingTheSourceNeverHoldProgressAndTheBoundedRunEnds() throws Exception {
        CopiedTopics topics = topics("markers", 0);
        Map<TopicPartition, Long> ends = new java.util.HashMap<>();
        try (TransactionalSource source = new TransactionalSource(kafka)) {
            // partition 0 ends in an abort marker, partition 1 in a commit marker; partition 2 has no record to copy
            source.transaction(topics.source(), 0, "kept-0", 40, true);
            source.transaction(topics.source(), 0, "aborted-0", 7, false);
            source.transaction(topics.source(), 1, "aborted-1", 5, false);
            source.transaction(topics.source(), 1, "kept-1", 30, true);
            source.transaction(topics.source(), 2, "aborted-2", 9, false);
            for (int p = 0; p < 3; p++) {
                ends.put(new TopicPartition(topics.target(), p),
                        source.settledEnd(new TopicPartition(topics.source(), p)));
            }
        }

        Engine first = copyUntilEnd(topics);
        assertEquals(Health.STOPPED, first.health(), () -> "failed: " + first.failure().orElse(null));
        assertEquals(70, first.stats().consumed(), "only the committed transactions' records");
        topics.assertExactCopy();
        Map<TopicPartition, Long> progress = new java.util.HashMap<>();
        topics.progress().forEach((tp, oam) -> progress.put(tp, oam.offset()));
        assertEquals(ends, progress, "every partition's progress at its log end, past the last marker: "
                + "lag 0, even where nothing was copied");

        Engine again = copyUntilEnd(topics);
        assertEquals(Health.STOPPED, again.health(), () -> "failed: " + again.failure().orElse(null));
        assertEquals(0, again.stats().consumed(), "a rerun finds nothing left to copy");
    }

    @Test
    void anIdlePartitionsProgressIsCommittedAgainLestItExpire() throws Exception {
        CopiedTopics topics = topics("idle", 30);
        TargetTransactionCommit recommitting = TargetTransactionCommit.builder()
                .producerProperties(Map.of("bootstrap.servers", kafka.bootstrapServers()))
                .transactionalIdPrefix(topics.progressGroup() + "-tx")
                .progressGroup(topics.progressGroup())
                .progressPartition(tp -> new TopicPartition(topics.target(), tp.partition()))
                .recommit(Duration.ofMillis(300))
                .build();
        try (Engine engine = Engine.startSink(config(topics, recommitting).build(),
                new CopySink(recommitting, topics.target()))) {
            awaitCommits(engine, "the copy committed", 1);
            long copied = engine.stats().commits();
            // no record arrives: only the recommit can move the count, partition by partition
            awaitCommits(engine, "an idle partition committed again", copied + 3);
            assertEquals(30, engine.stats().consumed());
        }
        topics.assertExactCopy();
    }

    @Test
    void anAssignmentsFirstCopyCommitsAtOnceNotAnIntervalLater() throws Exception {
        CopiedTopics topics = topics("first", 30);
        TargetTransactionCommit tx = transactions(topics.progressGroup() + "-tx", topics);
        try (Engine engine = Engine.startSink(config(topics, tx).commitInterval(Duration.ofHours(1)).build(),
                new CopySink(tx, topics.target()))) {
            // an hour's interval: only the first commit of each partition, right behind its first record, can make a
            // copy visible; the rest of the partition waits for the interval
            awaitCommits(engine, "each partition's first copy committed", 3);
            Map<Integer, List<String>> source = topics.valuesOf(topics.source());
            Map<Integer, List<String>> firsts = new java.util.TreeMap<>();
            source.forEach((partition, values) -> firsts.put(partition, values.subList(0, 1)));
            assertEquals(firsts, topics.valuesOf(topics.target()), "each partition's first record, once");
            topics.progress().forEach((tp, done) -> assertEquals(1, done.offset(), "the progress of " + tp));
            assertEquals(30, engine.stats().consumed(), "the rest was handed out behind the first commit");
            assertEquals(3, engine.stats().commits(), "after the first, commits wait for the interval again");
        }
    }

    private static void awaitCommits(Engine engine, String what, long commits) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (engine.stats().commits() < commits) {
            assertTrue(System.nanoTime() < deadline, what + ": " + engine.stats());
            Thread.sleep(50);
        }
    }

    @Test
    void anEarlierOwnerIsFencedOnceTheNextClaimsAndItsOpenTransactionIsAborted() throws Exception {
        CopiedTopics topics = topics("fence", 0);
        TopicPartition source = new TopicPartition(topics.source(), 0);
        String prefix = Names.unique("fence-tx");
        try (Closeable zombie = new Closeable(transactions(prefix, topics));
                Closeable owner = new Closeable(transactions(prefix, topics))) {
            assertEquals(Map.of(), zombie.tx.claim(Set.of(source), Duration.ofSeconds(30)));
            zombie.tx.sender(source).send(record(topics.target(), "from the zombie")).get();

            assertEquals(Map.of(), owner.tx.claim(Set.of(source), Duration.ofSeconds(30)), "nothing committed yet");
            Exception refused = assertThrows(Exception.class, () -> zombie.tx.commitNow(
                    Map.of(source, new OffsetAndMetadata(1, "")), Duration.ofSeconds(30)));
            // a fenced commit may have landed in general (a retried end of transaction): the engine stops, and the
            // next claim reads the truth, so the commit point never calls it refused for certain
            assertTrue(!zombie.tx.refusedForCertain(refused), "never certain: " + refused);

            owner.tx.sender(source).send(record(topics.target(), "from the owner")).get();
            owner.tx.commitNow(Map.of(source, new OffsetAndMetadata(1, "")), Duration.ofSeconds(30));
        }
        assertEquals(Map.of(0, List.of("from the owner")), topics.valuesOf(topics.target()),
                "the zombie's open transaction was aborted by the claim; only the owner's copy is visible");
        assertEquals(1, topics.progress().get(new TopicPartition(topics.target(), 0)).offset(),
                "the progress is keyed by the target partition");
    }

    @Test
    void aSourceThatIsNoTopicCommitsItsPositionAndMetadataAndEachSendsCallbackHearsTheWrite() throws Exception {
        // a producer command's input (a file) is a "source partition" too: named after the input, its progress kept
        // under a partition the target has, with the input's identity in the metadata
        CopiedTopics topics = topics("input", 0);
        TopicPartition input = new TopicPartition("file-import", 0);
        String prefix = Names.unique("input-tx");
        List<Long> written = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (Closeable tx = new Closeable(transactions(prefix, topics))) {
            assertEquals(Map.of(), tx.tx.claim(Set.of(input), Duration.ofSeconds(30)));
            for (int i = 0; i < 3; i++) {
                tx.tx.sender(input).send(record(topics.target(), "line " + i), (metadata, error) -> {
                    if (error == null) {
                        written.add(metadata.offset());
                    }
                });
            }
            tx.tx.commitNow(Map.of(input, new OffsetAndMetadata(42, "events.txt")), Duration.ofSeconds(30));
            assertEquals(List.of(0L, 1L, 2L), written, "each callback heard its write before the commit returned");
        }
        try (Closeable again = new Closeable(transactions(prefix, topics))) {
            OffsetAndMetadata resumed = again.tx.claim(Set.of(input), Duration.ofSeconds(30)).get(input);
            assertEquals(new OffsetAndMetadata(42, "events.txt"), resumed);
        }
        assertEquals(Map.of(0, List.of("line 0", "line 1", "line 2")), topics.valuesOf(topics.target()));
    }

    /**
     * A failed engine abandons its commit point: a commit under way is left to finish, its producer closed only as it
     * returns (a producer closed under a commit that was starting left that commit waiting {@code max.block.ms}: a
     * mirror stopped for lost source records took 60 s to end), and every later commit and send is refused at once,
     * for certain. The commit is held under way by the acknowledgement of its copy, whose callback holds the producer's
     * I/O thread.
     */
    @Test
    void anAbandonLetsACommitUnderWayFinishAndRefusesEveryLaterCommitForCertain() throws Exception {
        CopiedTopics topics = topics("abandon", 0);
        TopicPartition held = new TopicPartition(topics.source(), 0);
        TopicPartition idle = new TopicPartition(topics.source(), 1);
        String prefix = Names.unique("abandon-tx");
        CountDownLatch acknowledgement = new CountDownLatch(1);
        try (Closeable closeable = new Closeable(transactions(prefix, topics))) {
            TargetTransactionCommit tx = closeable.tx;
            assertEquals(Map.of(), tx.claim(Set.of(held, idle), Duration.ofSeconds(30)));
            tx.sender(held).send(record(topics.target(), "committed as the engine failed"), (metadata, error) -> {
                try {
                    acknowledgement.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            CompletableFuture<Void> underWay = CompletableFuture.runAsync(
                    () -> tx.commitNow(Map.of(held, new OffsetAndMetadata(1, "")), Duration.ofSeconds(30)));
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (!tx.committing()) {
                assertTrue(System.nanoTime() < deadline, "the commit starts");
                Thread.sleep(10);
            }
            tx.abandon();
            acknowledgement.countDown();
            underWay.get(30, TimeUnit.SECONDS); // it lands: nothing closed its producer under it

            for (TopicPartition later : List.of(held, idle)) {
                long asked = System.nanoTime();
                Exception refused = assertThrows(Exception.class,
                        () -> tx.commitNow(Map.of(later, new OffsetAndMetadata(1, "")), Duration.ofSeconds(30)));
                assertTrue(tx.refusedForCertain(refused), "never sent, so refused for certain: " + refused);
                assertTrue(refused.getMessage().contains("earlier failure"), refused.getMessage());
                assertTrue(System.nanoTime() - asked < TimeUnit.SECONDS.toNanos(1), "at once, not after a wait");
                assertThrows(IllegalStateException.class, () -> tx.sender(later).send(record(topics.target(), "no")));
            }
            while (producerThreads(prefix) > 0) { // each let go of in the background, the held one after its commit
                assertTrue(System.nanoTime() < deadline, "the producers are closed: " + producerThreads(prefix));
                Thread.sleep(10);
            }
        }
        assertEquals(Map.of(0, List.of("committed as the engine failed")), topics.valuesOf(topics.target()));
        assertEquals(1, topics.progress().get(new TopicPartition(topics.target(), 0)).offset(),
                "the commit under way moved the progress");
    }

    private static long producerThreads(String transactionalIdPrefix) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith("kafka-producer-network-thread")
                        && t.getName().contains(transactionalIdPrefix))
                .count();
    }

    /**
     * A target that stopped: a copy to a target topic the producer holds no metadata for waits {@code max.block.ms} for
     * it and fails, and each later send of the transaction waited as long again before it failed too, so a checkpoint
     * queued behind a fetch of copies came minutes later (a CI run of MirrorTargetOutageTest: two copies every 3 s and
     * no failure within a minute). Now a send after a failed copy throws at once: the transaction can only abort.
     */
    @Test
    void aSendAfterAFailedCopyThrowsAtOnce() throws Exception {
        try (KafkaCluster target = KafkaCluster.builder().name("tx-failed-copy").start()) {
            String topic = Names.unique("failed-copy");
            target.createTopic(topic, 1);
            TopicPartition source = new TopicPartition("a-source", 0);
            TargetTransactionCommit tx = TargetTransactionCommit.builder()
                    .producerProperties(Map.of("bootstrap.servers", target.bootstrapServers(), "linger.ms", 0,
                            "request.timeout.ms", 1_000, "max.block.ms", 3_000))
                    .transactionalIdPrefix(Names.unique("failed-copy-tx"))
                    .progressGroup(Names.unique("failed-copy-progress"))
                    .progressPartition(s -> new TopicPartition(topic, s.partition()))
                    .build();
            try (Closeable closing = new Closeable(tx)) {
                assertEquals(Map.of(), tx.claim(Set.of(source), Duration.ofSeconds(30)));
                target.node(1).stop();
                java.util.concurrent.Future<?> lost = tx.sender(source).send(record(topic, "not taken"));
                assertThrows(java.util.concurrent.ExecutionException.class, () -> lost.get(30, TimeUnit.SECONDS),
                        "no metadata within max.block.ms");
                long start = System.nanoTime();
                KafkaException refused = assertThrows(KafkaException.class,
                        () -> tx.sender(source).send(record(topic, "after it")));
                long millis = (System.nanoTime() - start) / 1_000_000;
                assertTrue(millis < 1_500, "refused at once, not after max.block.ms (3 s): " + millis + " ms");
                assertTrue(refused.getMessage().startsWith("an earlier copy in this transaction failed ("),
                        refused.getMessage());
            }
        }
    }

    @Test
    void handlersCommitThroughTheSourceGroupNotATransaction() {
        CopiedTopics topics = topics("handler", 0);
        TargetTransactionCommit tx = transactions(Names.unique("handler-tx"), topics);
        try {
            EngineConfig config = config(topics, tx).build();
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Engine.start(config,
                    new StringDeserializer(), new StringDeserializer(), record -> { }));
            assertTrue(e.getMessage().contains("Engine.startSink"), e.getMessage());
        } finally {
            tx.close();
        }
    }

    private CopiedTopics topics(String name, int records) {
        CopiedTopics topics = new CopiedTopics(kafka, Names.unique(name + "-src"), Names.unique(name + "-dst"),
                Names.unique(name + "-progress"));
        kafka.createTopic(topics.source(), 3);
        kafka.createTopic(topics.target(), 3);
        if (records > 0) {
            TestRecords.produceNumbered(kafka.clientProperties(Listener.PLAINTEXT), topics.source(), 0, records);
        }
        return topics;
    }

    private Engine copyUntilEnd(CopiedTopics topics) {
        TargetTransactionCommit tx = transactions(topics.progressGroup() + "-tx", topics);
        Engine engine = Engine.startSink(config(topics, tx).untilEnd(true).build(), new CopySink(tx, topics.target()));
        assertTrue(engine.awaitTermination(Duration.ofSeconds(60)), "the copy ends by itself at the end offsets");
        return engine;
    }

    private EngineConfig.Builder config(CopiedTopics topics, TargetTransactionCommit tx) {
        return EngineConfig.builder()
                .bootstrapServers(kafka.bootstrapServers())
                .topics(topics.source())
                .groupId(topics.progressGroup() + "-source")
                .consumerProperty("session.timeout.ms", 6_000)
                .consumerProperty("heartbeat.interval.ms", 500)
                .commitInterval(Duration.ofMillis(100))
                .commitPoint(tx.factory());
    }

    private TargetTransactionCommit transactions(String prefix, CopiedTopics topics) {
        return CopiedTopics.transactions(kafka.bootstrapServers(), prefix, topics.progressGroup(), topics.target());
    }

    private static ProducerRecord<byte[], byte[]> record(String topic, String value) {
        return new ProducerRecord<>(topic, 0, null, value.getBytes(StandardCharsets.UTF_8));
    }

    /** Closes a commit point at the end of a try block. */
    private record Closeable(TargetTransactionCommit tx) implements AutoCloseable {
        @Override
        public void close() {
            tx.close();
        }
    }
}
