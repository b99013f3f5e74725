package io.sluice.mirror.groups;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.core.Health;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.mirror.Mirror;
import io.sluice.mirror.MirrorConfig;
import io.sluice.mirror.MirrorDelivery;
import io.sluice.mirror.MirrorProgress;
import io.sluice.mirror.copy.Provenance;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import io.sluice.testkit.kafka.TestRecords;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/**
 * Every source offset of a partition whose target offsets differ from its source offsets (aborted transactions and
 * markers on both sides, records no mirror wrote in between) translates to the first copy from it or later, whether
 * found by the binary search or by the forward scan from the last answer, in any order of questions.
 */
class OffsetTranslatorTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final KafkaCluster source = SharedKafka.cluster();
    private final KafkaCluster target = SharedKafka.second();

    @Test
    void everySourceOffsetTranslatesToTheFirstCopyFromItOrLater() throws Exception {
        String topic = Names.unique("translate");
        source.createTopic(topic, 1);
        MirrorConfig config = boundedMirror(topic, "translate");
        produceWithAborts(topic, "first");
        copyToEnd(config);
        produceOnTarget(topic); // a later copy's target offset is not the earlier one's plus one
        produceWithAborts(topic, "second");
        copyToEnd(config);

        Copied copied = copied(topic);
        TopicPartition partition = copied.partition();
        String sourceCluster = copied.sourceCluster();
        List<ConsumerRecord<byte[], byte[]>> copies = copied.copies();
        long sourceEnd = copied.sourceEnd();
        long targetEnd = copied.targetEnd();
        Map<Long, Long> expected = new HashMap<>();
        for (long offset = 0; offset <= sourceEnd + 1; offset++) {
            expected.put(offset, firstCopyFrom(copies, sourceCluster, offset, targetEnd));
        }
        assertTrue(expected.entrySet().stream().anyMatch(e -> !e.getKey().equals(e.getValue())),
                "target offsets differ from source offsets: " + expected);

        long seed = System.nanoTime();
        List<Long> shuffled = new ArrayList<>(expected.keySet());
        Collections.shuffle(shuffled, new Random(seed));
        List<Long> ascending = new ArrayList<>(expected.keySet());
        Collections.sort(ascending);
        for (int forwardScan : new int[] {1, OffsetTranslator.FORWARD_SCAN}) {
            for (List<Long> questions : List.of(ascending, shuffled)) {
                try (MirrorProgress progress = MirrorProgress.of(config, TIMEOUT);
                        TargetCopies targetCopies = new TargetCopies(config.targetProperties(), sourceCluster,
                                TIMEOUT)) {
                    OffsetTranslator translator = new OffsetTranslator(config, progress, targetCopies, forwardScan);
                    for (long offset : questions) {
                        assertEquals(expected.get(offset), translator.translate(Map.of(partition, offset))
                                .get(partition), "source offset " + offset + ", forward scan " + forwardScan
                                + ", shuffled with seed " + seed);
                    }
                }
            }
        }

        // a progress read before the copies it counts were all there (the copy moves on between a round's reads): a
        // group ahead of it translates to the first copy from the progress on, which lies near the end
        long behind = sourceEnd / 2;
        target.admin().alterConsumerGroupOffsets(config.progressGroup(),
                Map.of(partition, new OffsetAndMetadata(behind))).all().get(30, TimeUnit.SECONDS);
        for (int forwardScan : new int[] {1, OffsetTranslator.FORWARD_SCAN}) {
            try (MirrorProgress progress = MirrorProgress.of(config, TIMEOUT);
                    TargetCopies targetCopies = new TargetCopies(config.targetProperties(), sourceCluster, TIMEOUT)) {
                OffsetTranslator translator = new OffsetTranslator(config, progress, targetCopies, forwardScan);
                assertEquals(expected.get(behind), translator.translate(Map.of(partition, sourceEnd)).get(partition),
                        "a group at the source's end, clamped at the progress " + behind + ", forward scan "
                                + forwardScan);
            }
        }
    }

    /**
     * A target partition that held many records before the mirror's first copy (a move from MirrorMaker 2 to the same
     * topic names) is not read from its start: each search read them all, and on millions gave up after 30 s, every
     * round. The first copy's place is in the progress's commit ({@code first-copy=M@S}), and searches start there.
     */
    @Test
    void aSearchStartsAtTheFirstCopyNotAtTheRecordsBeforeIt() throws Exception {
        String topic = Names.unique("moved");
        source.createTopic(topic, 1);
        target.createTopic(topic, 1);
        int before = 20_000;
        produceOnTarget(topic, before, "not a copy");
        produceWithAborts(topic, "first");
        MirrorConfig config = boundedMirror(topic, "moved");
        copyToEnd(config);

        Copied copied = copied(topic);
        TopicPartition partition = copied.partition();
        String sourceCluster = copied.sourceCluster();
        List<ConsumerRecord<byte[], byte[]>> copies = copied.copies();
        long sourceEnd = copied.sourceEnd();
        long targetEnd = copied.targetEnd();
        try (MirrorProgress progress = MirrorProgress.of(config, TIMEOUT);
                TargetCopies targetCopies = new TargetCopies(config.targetProperties(), sourceCluster, TIMEOUT)) {
            OffsetTranslator translator = new OffsetTranslator(config, progress, targetCopies,
                    OffsetTranslator.FORWARD_SCAN);
            for (long offset = sourceEnd; offset >= 0; offset--) { // backwards: a search for each
                long expected = firstCopyFrom(copies, sourceCluster, offset, targetEnd);
                assertTrue(expected >= before, "a copy lies after the records before it");
                assertEquals(expected, translator.translate(Map.of(partition, offset)).get(partition),
                        "source offset " + offset);
            }
            assertTrue(targetCopies.recordsRead() < before / 2, targetCopies.recordsRead() + " records read to "
                    + "translate " + (sourceEnd + 1) + " offsets, past " + before + " records before the first copy");
        }

        // a commit whose first copy is not where it says (it speaks of a target topic created again since, while an
        // at-least-once progress lived on in the source): searched from the start, not from there, which would pass
        // the copies from source offset 0 to 9
        long tenth = firstCopyFrom(copies, sourceCluster, 10, targetEnd);
        OffsetAndMetadata committed = target.admin().listConsumerGroupOffsets(config.progressGroup())
                .partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS).get(partition);
        assertTrue(committed.metadata().contains("first-copy="), committed.metadata());
        target.admin().alterConsumerGroupOffsets(config.progressGroup(), Map.of(partition, new OffsetAndMetadata(
                committed.offset(), committed.metadata().replaceAll("first-copy=\\d+@\\d+", "first-copy=" + tenth
                        + "@0")))).all().get(30, TimeUnit.SECONDS);
        try (MirrorProgress progress = MirrorProgress.of(config, TIMEOUT);
                TargetCopies targetCopies = new TargetCopies(config.targetProperties(), sourceCluster, TIMEOUT)) {
            OffsetTranslator translator = new OffsetTranslator(config, progress, targetCopies,
                    OffsetTranslator.FORWARD_SCAN);
            assertEquals(firstCopyFrom(copies, sourceCluster, 0, targetEnd), translator.translate(Map.of(partition,
                    0L)).get(partition), "not the copy of source offset 10 at " + tenth);
        }
    }

    /**
     * The target topic deleted and created again while the sync runs (its copies go on into the new topic, an
     * at-least-once progress living on in the source): what was learnt of the earlier topic (where its first copy is,
     * the last answers) is not of the new one. Kept, a search began past copies a group had not read (a review).
     */
    @Test
    void aTargetTopicCreatedAgainIsSearchedAfreshNotFromWhatWasLearntOfTheEarlierOne() throws Exception {
        String topic = Names.unique("recreated");
        source.createTopic(topic, 1);
        target.createTopic(topic, 1);
        produceOnTarget(topic, 2_000, "not a copy");
        produceWithAborts(topic, "first");
        MirrorConfig config = MirrorConfig.builder().name(Names.unique("recreated"))
                .sourceProperties(source.clientProperties(Listener.PLAINTEXT))
                .targetProperties(target.clientProperties(Listener.PLAINTEXT)).delivery(MirrorDelivery.AT_LEAST_ONCE)
                .topics(topic).commitInterval(Duration.ofMillis(50)).untilEnd(true).build();
        copyToEnd(config);
        Copied copied = copied(topic);
        TopicPartition partition = copied.partition();
        String sourceCluster = copied.sourceCluster();
        Uuid earlier = targetTopicId(topic);
        try (MirrorProgress progress = MirrorProgress.of(config, TIMEOUT);
                TargetCopies targetCopies = new TargetCopies(config.targetProperties(), sourceCluster, TIMEOUT)) {
            OffsetTranslator translator = new OffsetTranslator(config, progress, targetCopies,
                    OffsetTranslator.FORWARD_SCAN);
            long first = firstCopyFrom(copied.copies(), sourceCluster, 0, copied.targetEnd());
            assertTrue(first >= 2_000, "the first copy lies after the records before it: " + first);
            assertEquals(first, translator.translate(Map.of(partition, 0L), Map.of(), Map.of(topic, earlier))
                    .offsets().get(partition));

            // created again; the copies go on into it from its start, and more records follow them, past the earlier
            // first copy's offset
            target.admin().deleteTopics(List.of(topic)).all().get(30, TimeUnit.SECONDS);
            Uuid now = earlier;
            for (long deadline = System.nanoTime() + TIMEOUT.toNanos(); now.equals(earlier);) {
                assertTrue(System.nanoTime() < deadline, "the target topic created again within 30 s");
                target.createTopic(topic, 1); // refused while the deletion is under way: asked again
                now = targetTopicId(topic);
            }
            List<ConsumerRecord<byte[], byte[]>> sourceRecords = TestRecords.readAll(
                    source.clientProperties(Listener.PLAINTEXT), topic, TIMEOUT);
            try (var producer = new KafkaProducer<>(target.clientProperties(Listener.PLAINTEXT),
                    new ByteArraySerializer(), new ByteArraySerializer())) {
                for (ConsumerRecord<byte[], byte[]> r : sourceRecords) {
                    ProducerRecord<byte[], byte[]> copy = new ProducerRecord<>(topic, 0, null, r.value());
                    copy.headers().add(Provenance.HEADER, Provenance.value(sourceCluster, r.offset()));
                    producer.send(copy);
                }
            }
            produceOnTarget(topic, 2_100, "not a copy");
            Copied again = copied(topic);
            assertTrue(again.targetEnd() > first, "the new topic reaches past the earlier first copy");
            for (long offset : new long[] {0, sourceRecords.get(5).offset()}) {
                assertEquals(firstCopyFrom(again.copies(), sourceCluster, offset, again.targetEnd()),
                        translator.translate(Map.of(partition, offset), Map.of(), Map.of(topic, now)).offsets()
                                .get(partition), "source offset " + offset + " in the topic created again");
            }
        }
    }

    private Uuid targetTopicId(String topic) throws Exception {
        try {
            return target.admin().describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS).get(topic)
                    .topicId();
        } catch (java.util.concurrent.ExecutionException e) {
            return Uuid.ZERO_UUID; // gone, not created again yet
        }
    }

    /** Partition 0 of a topic copied, as the target holds it. */
    private record Copied(TopicPartition partition, String sourceCluster, List<ConsumerRecord<byte[], byte[]>> copies,
            long sourceEnd, long targetEnd) {
    }

    private Copied copied(String topic) throws Exception {
        TopicPartition partition = new TopicPartition(topic, 0);
        return new Copied(partition, source.admin().describeCluster().clusterId().get(30, TimeUnit.SECONDS),
                TestRecords.readAll(target.clientProperties(Listener.PLAINTEXT), topic, TIMEOUT),
                stableEnd(source, partition), stableEnd(target, partition));
    }

    private MirrorConfig boundedMirror(String topic, String name) {
        return MirrorConfig.builder().name(Names.unique(name))
                .sourceProperties(source.clientProperties(Listener.PLAINTEXT))
                .targetProperties(target.clientProperties(Listener.PLAINTEXT))
                .topics(topic).commitInterval(Duration.ofMillis(50)).untilEnd(true).build();
    }

    /** The target offset of the first copy from source offset {@code from} on, read off the copies; else the end. */
    private static long firstCopyFrom(List<ConsumerRecord<byte[], byte[]>> copies, String sourceCluster, long from,
            long targetEnd) {
        return copies.stream().filter(r -> Provenance.lastHop(r.headers())
                .filter(h -> h.clusterId().equals(sourceCluster) && h.offset() >= from).isPresent())
                .map(ConsumerRecord::offset).findFirst().orElse(targetEnd);
    }

    private static void copyToEnd(MirrorConfig config) {
        try (Mirror mirror = Mirror.start(config)) {
            assertTrue(mirror.awaitTermination(Duration.ofSeconds(60)), "a bounded mirror ends at the end offsets");
            assertEquals(Health.STOPPED, mirror.engine().health(), () -> "failed: " + mirror.engine().failure());
        }
    }

    /** Transactions of 7 records, every other one followed by an aborted one of 3 (sent before the abort). */
    private void produceWithAborts(String topic, String name) {
        Map<String, Object> props = new HashMap<>(source.clientProperties(Listener.PLAINTEXT));
        props.put("transactional.id", Names.unique("tx"));
        try (var producer = new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            producer.initTransactions();
            for (int t = 0; t < 6; t++) {
                producer.beginTransaction();
                for (int i = 0; i < 7; i++) {
                    producer.send(new ProducerRecord<>(topic, 0, null, bytes(name + t + "-" + i)));
                }
                producer.commitTransaction();
                if (t % 2 == 0) {
                    producer.beginTransaction();
                    for (int i = 0; i < 3; i++) {
                        producer.send(new ProducerRecord<>(topic, 0, null, bytes("aborted")));
                    }
                    producer.flush();
                    producer.abortTransaction();
                }
            }
        }
    }

    private void produceOnTarget(String topic) {
        produceOnTarget(topic, 4, "local");
    }

    private void produceOnTarget(String topic, int count, String value) {
        try (var producer = new KafkaProducer<>(target.clientProperties(Listener.PLAINTEXT), new ByteArraySerializer(),
                new ByteArraySerializer())) {
            for (int i = 0; i < count; i++) {
                producer.send(new ProducerRecord<>(topic, 0, null, bytes(value + "-" + i)));
            }
        }
    }

    private static long stableEnd(KafkaCluster cluster, TopicPartition partition) {
        Map<String, Object> props = new HashMap<>(cluster.clientProperties(Listener.PLAINTEXT));
        props.put("isolation.level", "read_committed");
        try (var reader = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            return reader.endOffsets(List.of(partition), TIMEOUT).get(partition);
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
