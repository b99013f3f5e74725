package io.sluice.mirror;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.mirror.copy.Provenance;
import io.sluice.mirror.groups.GroupOffsetSync;
import io.sluice.mirror.groups.GroupTranslationReport;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/**
 * Source consumer groups' offsets reach the same groups in the target exactly: a consumer failing over reads on at the
 * first record it had not consumed, even though aborted transactions and markers make target offsets differ from
 * source offsets; never while the group is active in the target, never backwards.
 */
class GroupTranslationTest {

    private static final int PARTITIONS = 3;
    private static final Duration WAIT = Duration.ofSeconds(60);

    private final Clusters clusters = new Clusters(SharedKafka.cluster(), SharedKafka.second());

    @Test
    void aConsumerFailingOverToTheTargetReadsOnAtTheFirstRecordItHadNotConsumed() throws Exception {
        String topic = transactionalSourceTopic("failover");
        String group = Names.unique("orders-app");
        // partition 0 consumed nothing, 1 up to its first transaction (its commit points at a marker, followed by an
        // aborted transaction), 2 everything
        Map<TopicPartition, Long> consumed = Map.of(new TopicPartition(topic, 0), 0L,
                new TopicPartition(topic, 1), 10L, new TopicPartition(topic, 2), 27L);
        commitOnSource(group, consumed);
        MirrorConfig config = clusters.mirror(Names.unique("groups"), topic).groups(Pattern.compile(Pattern.quote(group)))
                .groupSyncInterval(Duration.ofMillis(300)).build();
        try (Mirror mirror = Mirror.start(config)) {
            assertTrue(mirror.groupSync().isPresent(), "a mirror that names groups syncs them");
            awaitEqual("the target group's offsets are the exact translations", () -> exactTranslation(topic, consumed),
                    () -> targetCommitted(group));
            assertNotEquals(consumed, targetCommitted(group), "the markers and the aborted records of the source make "
                    + "target offsets differ from source offsets: the translation is not the same number");
            GroupTranslationReport report = GroupTranslationReport.of(config);
            assertEquals(PARTITIONS, report.rows().size(), report.text());
            report.rows().forEach(row -> assertEquals(OptionalLong.of(0), row.rereadOnFailover(), report.text()));
            assertTrue(report.text().contains("re-reads 0"), report.text());

            produceCommitted(topic, "after"); // so that the group has something to read where it had read everything
            Map<Integer, ConsumerRecord<byte[], byte[]>> first = firstRecordsOnTarget(group, topic);
            var source = Clusters.partitions(clusters.source(), topic); // read after its copies: surely committed
            for (int p = 0; p < PARTITIONS; p++) {
                long next = consumed.get(new TopicPartition(topic, p));
                ConsumerRecord<byte[], byte[]> expected = source.get(p).stream().filter(r -> r.offset() >= next)
                        .findFirst().orElseThrow(() -> new AssertionError("source offsets " + source.values().stream()
                                .map(rs -> rs.stream().map(ConsumerRecord::offset).toList()).toList()));
                assertEquals(expected.offset(), Provenance.lastHop(first.get(p).headers()).orElseThrow().offset(),
                        "partition " + p + ": the first record read on the target is the first one not consumed");
                assertEquals(Clusters.content(expected), Clusters.content(first.get(p)), "partition " + p);
            }
        }
    }

    @Test
    void aBoundedRunSyncsTheGroupsOnceMoreAfterItsLastCommit() throws Exception {
        String topic = transactionalSourceTopic("bounded");
        String group = Names.unique("orders-app");
        Map<TopicPartition, Long> consumed = Map.of(new TopicPartition(topic, 0), 10L,
                new TopicPartition(topic, 1), 27L, new TopicPartition(topic, 2), 17L);
        commitOnSource(group, consumed);
        // an hour between rounds: the first round, at the start, finds nothing copied yet; only a round after the
        // copy's final commit can translate the offsets
        MirrorConfig config = clusters.mirror(Names.unique("groups"), topic).groups(Pattern.compile(Pattern.quote(group)))
                .groupSyncInterval(Duration.ofHours(1)).untilEnd(true).build();
        try (Mirror mirror = Mirror.start(config)) {
            assertTrue(mirror.awaitTermination(WAIT), "the bounded run ends by itself");
        }
        assertEquals(exactTranslation(topic, consumed), targetCommitted(group),
                "the target group's offsets are the exact translations once the run ended");

        // a run with nothing new to copy may end before it holds a partition: its last round still writes them all
        Map<TopicPartition, Long> later = Map.of(new TopicPartition(topic, 0), 27L,
                new TopicPartition(topic, 1), 27L, new TopicPartition(topic, 2), 27L);
        commitOnSource(group, later);
        try (Mirror mirror = Mirror.start(config)) {
            assertTrue(mirror.awaitTermination(WAIT), "the bounded run ends by itself");
        }
        assertEquals(exactTranslation(topic, later), targetCommitted(group),
                "the group moved on in the source: translated again by the run with nothing to copy");

        // the group reads past what was copied: "re-reads 0" alone read as a safe failover (a chaos run)
        produceCommitted(topic, "not-copied"); // 2 records a partition (offsets 28, 29) and their marker (30)
        Map<TopicPartition, Long> ahead = new HashMap<>();
        later.keySet().forEach(tp -> ahead.put(tp, 31L));
        commitOnSource(group, ahead);
        GroupTranslationReport report = GroupTranslationReport.of(config);
        assertEquals(PARTITIONS, report.rows().size(), report.text());
        report.rows().forEach(row -> assertEquals(3, row.translation().aheadOfTheCopy(), report.text()));
        assertTrue(report.text().contains("up to 3 records it read are not copied yet (the mirror is behind)"),
                report.text());
    }

    @Test
    void eachInstanceWritesTheOffsetsOfThePartitionsItCopiesAlone() throws Exception {
        // instances that each wrote every partition's offsets came between each other's read and write, and one put
        // back a translation the other had moved past (a review)
        String topic = transactionalSourceTopic("share");
        String group = Names.unique("orders-app");
        Map<TopicPartition, Long> before = new HashMap<>();
        Map<TopicPartition, Long> after = new HashMap<>();
        for (int p = 0; p < PARTITIONS; p++) {
            before.put(new TopicPartition(topic, p), 10L);
            after.put(new TopicPartition(topic, p), 27L);
        }
        commitOnSource(group, before);
        String name = Names.unique("groups");
        MirrorConfig syncing = clusters.mirror(name, topic).groups(Pattern.compile(Pattern.quote(group)))
                .groupSyncInterval(Duration.ofMillis(300)).build();
        MirrorConfig notSyncing = clusters.mirror(name, topic).build(); // the same mirror, its groups left to the other
        try (Mirror first = Mirror.start(syncing)) {
            awaitEqual("the group synced by the only instance", () -> exactTranslation(topic, before),
                    () -> targetCommitted(group));
            try (Mirror second = Mirror.start(notSyncing)) {
                awaitEqual("the partitions shared by the two instances", () -> true,
                        () -> !first.engine().partitions().isEmpty() && !second.engine().partitions().isEmpty()
                                && first.engine().partitions().size() + second.engine().partitions().size()
                                        == PARTITIONS);
                Map<TopicPartition, Long> firstCopies = new HashMap<>();
                first.engine().partitions().forEach(p -> firstCopies.put(p.partition(), after.get(p.partition())));
                commitOnSource(group, after);
                awaitEqual("the first instance's partitions synced", () -> exactTranslation(topic, firstCopies),
                        () -> onlyOf(targetCommitted(group), firstCopies));
                awaitRounds(first.groupSync().orElseThrow(), 3);
                Map<TopicPartition, Long> secondCopies = new HashMap<>();
                second.engine().partitions().forEach(p -> secondCopies.put(p.partition(), 10L));
                assertEquals(exactTranslation(topic, secondCopies), onlyOf(targetCommitted(group), secondCopies),
                        "the second instance's partitions are not the first's to write");
            }
        }
    }

    /**
     * One of several instances that holds no partition when it stops (idle in a scale-out, or after a rebalance) wrote
     * every partition's offsets in its last round, over the instances that hold them: an older translation written
     * after theirs takes a group back (a review). It writes none now. Kafka's consumer group protocol (KIP-848) makes
     * the idle one certain: its assignor keeps the partitions where they are when a fourth member joins three that
     * hold one each.
     */
    @Test
    void anInstanceThatHoldsNoPartitionWhenItStopsWritesNoGroupsOffsets() throws Exception {
        String topic = transactionalSourceTopic("idle");
        String group = Names.unique("orders-app");
        Map<TopicPartition, Long> consumed = Map.of(new TopicPartition(topic, 0), 10L,
                new TopicPartition(topic, 1), 27L, new TopicPartition(topic, 2), 17L);
        commitOnSource(group, consumed);
        String name = Names.unique("groups");
        MirrorConfig copying = consumerProtocol(name, topic).build();
        MirrorConfig idleSyncing = consumerProtocol(name, topic).groups(Pattern.compile(Pattern.quote(group)))
                .groupSyncInterval(Duration.ofMillis(300)).build();
        try (Mirror a = Mirror.start(copying); Mirror b = Mirror.start(copying); Mirror c = Mirror.start(copying)) {
            awaitEqual("one partition each", () -> List.of(1, 1, 1), () -> List.of(a.engine().partitions().size(),
                    b.engine().partitions().size(), c.engine().partitions().size()));
            awaitEqual("everything copied", () -> sizes(Clusters.partitions(clusters.source(), topic)),
                    () -> sizes(Clusters.partitions(clusters.target(), topic)));
            try (Mirror idle = Mirror.start(idleSyncing)) {
                awaitRounds(idle.groupSync().orElseThrow(), 3);
                assertTrue(idle.engine().partitions().isEmpty(), "the premise: the fourth instance holds none");
                assertEquals(3, a.engine().partitions().size() + b.engine().partitions().size()
                        + c.engine().partitions().size(), "the premise: the others keep theirs");
            }
            assertEquals(Map.of(), targetCommitted(group), "the groups are the instances' that copy their partitions "
                    + "(here none syncs groups), not the idle one's");
        }
    }

    private MirrorConfig.Builder consumerProtocol(String name, String topic) {
        return MirrorConfig.builder().name(name)
                .sourceProperties(clusters.source().clientProperties(Listener.PLAINTEXT))
                .sourceProperty("group.protocol", "consumer")
                .targetProperties(clusters.target().clientProperties(Listener.PLAINTEXT))
                .topics(topic)
                .commitInterval(Duration.ofMillis(200));
    }

    private static List<Integer> sizes(Map<Integer, List<ConsumerRecord<byte[], byte[]>>> partitions) {
        return partitions.values().stream().map(List::size).toList();
    }

    private static Map<TopicPartition, Long> onlyOf(Map<TopicPartition, Long> offsets, Map<TopicPartition, Long> of) {
        Map<TopicPartition, Long> only = new HashMap<>(offsets);
        only.keySet().retainAll(of.keySet());
        return only;
    }

    @Test
    void aGroupActiveOnTheTargetIsLeftAloneAndAGroupIsNeverMovedBack() throws Exception {
        String topic = transactionalSourceTopic("alone");
        String prefix = Names.unique("app");
        String active = prefix + "-active";
        String rewound = prefix + "-rewound";
        TopicPartition p0 = new TopicPartition(topic, 0);
        MirrorConfig config = clusters.mirror(Names.unique("groups"), topic)
                .groups(Pattern.compile(Pattern.quote(prefix) + "-.*")).groupSyncInterval(Duration.ofMillis(300))
                .build();
        try (Mirror mirror = Mirror.start(config)) {
            GroupOffsetSync sync = mirror.groupSync().orElseThrow();
            commitOnSource(rewound, Map.of(p0, 20L));
            awaitEqual("the group is synced", () -> exactTranslation(topic, Map.of(p0, 20L)),
                    () -> targetCommitted(rewound));
            Map<TopicPartition, Long> synced = targetCommitted(rewound);

            try (KafkaConsumer<byte[], byte[]> member = targetConsumer(active, "latest")) {
                member.subscribe(List.of(topic));
                awaitEqual("the member joined", () -> true, () -> {
                    member.poll(Duration.ofMillis(100));
                    return !member.assignment().isEmpty();
                });
                commitOnSource(active, Map.of(p0, 5L));
                commitOnSource(rewound, Map.of(p0, 5L));
                awaitRounds(sync, 3);
                assertEquals(Map.of(), targetCommitted(active), "a group with members in the target is left alone");
                assertEquals(synced, targetCommitted(rewound), "a group is never moved back");
            }
            awaitEqual("the group is synced once its member left", () -> exactTranslation(topic, Map.of(p0, 5L)),
                    () -> targetCommitted(active));

            // the target group is ahead of the source group now: a failover would skip the records in between
            long between = Clusters.partitions(clusters.source(), topic).get(0).stream()
                    .filter(r -> r.offset() >= 5 && r.offset() < 20).count();
            GroupTranslationReport report = GroupTranslationReport.of(config);
            GroupTranslationReport.Row row = report.rows().stream()
                    .filter(r -> r.translation().group().equals(rewound)).findFirst().orElseThrow();
            assertEquals(OptionalLong.of(-between), row.rereadOnFailover(), report.text());
            assertTrue(report.text().contains("SKIPS " + between + " records"), report.text());
        }
    }

    /**
     * Per partition: 10 records committed (offsets 0-9, marker 10), 5 aborted (11-15, marker 16), 10 committed
     * (17-26, marker 27).
     */
    private String transactionalSourceTopic(String name) {
        String topic = Names.unique(name);
        clusters.source().createTopic(topic, PARTITIONS);
        try (KafkaProducer<byte[], byte[]> producer = transactional(clusters.source())) {
            producer.initTransactions();
            send(producer, topic, "a", 10, true);
            send(producer, topic, "aborted", 5, false);
            send(producer, topic, "b", 10, true);
        }
        return topic;
    }

    private void produceCommitted(String topic, String name) {
        try (KafkaProducer<byte[], byte[]> producer = transactional(clusters.source())) {
            producer.initTransactions();
            send(producer, topic, name, 2, true);
        }
    }

    private static void send(KafkaProducer<byte[], byte[]> producer, String topic, String name, int perPartition,
            boolean commit) {
        producer.beginTransaction();
        for (int p = 0; p < PARTITIONS; p++) {
            for (int i = 0; i < perPartition; i++) {
                producer.send(new ProducerRecord<>(topic, p, bytes(name + "-k" + i), bytes(name + "-v" + p + "-" + i)));
            }
        }
        if (commit) {
            producer.commitTransaction();
        } else {
            producer.flush(); // into the log first: an abort drops what was not sent yet
            producer.abortTransaction();
        }
    }

    private static KafkaProducer<byte[], byte[]> transactional(KafkaCluster cluster) {
        Map<String, Object> props = new HashMap<>(cluster.clientProperties(Listener.PLAINTEXT));
        props.put("transactional.id", Names.unique("source-tx"));
        return new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
    }

    /** A group of the source commits, as a consumer that read up to those offsets does. */
    private void commitOnSource(String group, Map<TopicPartition, Long> offsets) {
        Map<String, Object> props = new HashMap<>(clusters.source().clientProperties(Listener.PLAINTEXT));
        props.put("group.id", group);
        props.put("enable.auto.commit", false);
        try (var consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            Map<TopicPartition, OffsetAndMetadata> commit = new HashMap<>();
            offsets.forEach((tp, offset) -> commit.put(tp, new OffsetAndMetadata(offset)));
            consumer.commitSync(commit);
        }
    }

    /**
     * Worked out from the target's records, independently of the translator: the offset of the first copy of a source
     * offset at or after the committed one, or the target's read_committed end when there is none.
     */
    private Map<TopicPartition, Long> exactTranslation(String topic, Map<TopicPartition, Long> committed)
            throws Exception {
        String sourceCluster = clusters.source().admin().describeCluster().clusterId().get(30, TimeUnit.SECONDS);
        var target = Clusters.partitions(clusters.target(), topic);
        Map<TopicPartition, Long> end;
        try (KafkaConsumer<byte[], byte[]> reader = targetConsumer(null, null)) {
            end = reader.endOffsets(committed.keySet(), Duration.ofSeconds(30));
        }
        Map<TopicPartition, Long> exact = new HashMap<>();
        committed.forEach((tp, offset) -> exact.put(tp, target.getOrDefault(tp.partition(), List.of()).stream()
                .filter(r -> Provenance.lastHop(r.headers()).filter(h -> h.clusterId().equals(sourceCluster)
                        && h.offset() >= offset).isPresent())
                .map(ConsumerRecord::offset).findFirst().orElse(end.get(tp))));
        return exact;
    }

    private Map<TopicPartition, Long> targetCommitted(String group) throws Exception {
        Map<TopicPartition, Long> offsets = new HashMap<>();
        clusters.target().admin().listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata()
                .get(30, TimeUnit.SECONDS).forEach((tp, o) -> offsets.put(tp, o.offset()));
        return offsets;
    }

    /** The group, on the target, from its committed offsets (there is no reset: it must have them). */
    private Map<Integer, ConsumerRecord<byte[], byte[]>> firstRecordsOnTarget(String group, String topic)
            throws Exception {
        Map<Integer, ConsumerRecord<byte[], byte[]>> first = new HashMap<>();
        try (KafkaConsumer<byte[], byte[]> consumer = targetConsumer(group, "none")) {
            consumer.subscribe(List.of(topic));
            awaitEqual("a first record of every partition", () -> true, () -> {
                consumer.poll(Duration.ofMillis(200)).forEach(r -> first.putIfAbsent(r.partition(), r));
                return first.size() == PARTITIONS;
            });
        }
        return first;
    }

    /** A read_committed consumer of the target, in {@code group} (or none) with the offset reset {@code reset}. */
    private KafkaConsumer<byte[], byte[]> targetConsumer(String group, String reset) {
        Map<String, Object> props = new HashMap<>(clusters.target().clientProperties(Listener.PLAINTEXT));
        props.put("isolation.level", "read_committed");
        props.put("enable.auto.commit", false);
        if (group != null) {
            props.put("group.id", group);
            props.put("auto.offset.reset", reset);
        }
        return new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    private static void awaitRounds(GroupOffsetSync sync, int rounds) throws Exception {
        long until = sync.rounds() + rounds;
        awaitEqual(rounds + " more rounds of the group sync", () -> true, () -> sync.rounds() >= until);
    }

    /** Polls both sides until they are equal, for at most {@link #WAIT}; the last values make the failure. */
    private static <T> void awaitEqual(String what, Checked<T> expected, Checked<T> actual) throws Exception {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (true) {
            T want = expected.get();
            T got = actual.get();
            if (want.equals(got)) {
                return;
            }
            if (System.nanoTime() > deadline) {
                assertEquals(want, got, what + ": not within " + WAIT.toSeconds() + " s");
            }
            Thread.sleep(100);
        }
    }

    private interface Checked<T> {
        T get() throws Exception;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
