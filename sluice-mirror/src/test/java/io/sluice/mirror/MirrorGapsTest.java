package io.sluice.mirror;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.core.Health;
import io.sluice.local.kafka.Listener;
import io.sluice.mirror.audit.MirrorAudit;
import io.sluice.mirror.audit.MirrorAuditConfig;
import io.sluice.mirror.audit.MirrorAuditException;
import io.sluice.mirror.audit.MirrorAuditReport;
import io.sluice.mirror.groups.GroupTranslationReport;
import io.sluice.mirror.groups.PartitionTranslation;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import io.sluice.testkit.kafka.TestRecords;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * Loud gaps: records the source deleted before they were copied, or a source topic made anew, stop that partition with
 * an error that names what was lost, while the others go on; the mirror never skips silently.
 */
class MirrorGapsTest {

    private final Clusters clusters = new Clusters(SharedKafka.cluster(), SharedKafka.second());

    @Test
    void recordsDeletedAtTheSourceBeforeTheyWereCopiedStopTheMirrorNamingTheLostRange() throws Exception {
        String topic = Names.unique("truncated");
        clusters.source().createTopic(topic, 1);
        Map<String, Object> client = clusters.source().clientProperties(Listener.PLAINTEXT);
        TestRecords.produceNumbered(client, topic, 0, 100);
        MirrorConfig config = clusters.mirror(Names.unique("truncated"), topic).untilEnd(true).build();
        assertEquals(Health.STOPPED, run(config).health, "the first 100 are copied");

        TestRecords.produceNumbered(client, topic, 100, 100);
        clusters.source().admin().deleteRecords(Map.of(new TopicPartition(topic, 0), RecordsToDelete.beforeOffset(150)))
                .all().get(30, TimeUnit.SECONDS); // what retention does to a log the mirror has not read yet
        Ended second = run(config);
        assertEquals(Health.FAILED, second.health, "a gap is never skipped");
        assertTrue(second.failure.contains(topic + "-0: offsets 100 to 149 were deleted"), second.failure);
        assertEquals(100, Clusters.partitions(clusters.target(), topic).get(0).size(), "nothing copied past the gap");

        // the audit says so too: it said CLEAN (exit 0) with the loss in a note, and "source offsets 150 up to 100"
        MirrorAuditReport audit = MirrorAudit.run(MirrorAuditConfig.builder(config).build());
        assertFalse(audit.clean(), audit.toText());
        assertEquals(50, audit.partitions().get(0).lostBeforeCopy());
        assertTrue(audit.toText().contains("source offsets 100 up to 150: removed (by retention or a delete-records "
                + "request) before the mirror copied them, 50 offsets lost"), audit.toText());
    }

    /**
     * A gap stops its partition alone: the other partition goes on copying, records produced after the stop too, the
     * progress of the stopped one stays where its loss begins, and the mirror, stopped, says what was lost.
     */
    @Test
    void aGapStopsThatPartitionAloneWhileTheOthersGoOnCopying() throws Exception {
        String topic = Names.unique("gap-one-partition");
        clusters.source().createTopic(topic, 2);
        produce(topic, 0, 100);
        produce(topic, 1, 100);
        String name = Names.unique("gap-one-partition");
        MirrorConfig bounded = clusters.mirror(name, topic).untilEnd(true).build();
        assertEquals(Health.STOPPED, run(bounded).health);
        produce(topic, 0, 100);
        produce(topic, 1, 100);
        TopicPartition p0 = new TopicPartition(topic, 0);
        clusters.source().admin().deleteRecords(Map.of(p0, RecordsToDelete.beforeOffset(150))).all()
                .get(30, TimeUnit.SECONDS);

        Mirror mirror = Mirror.start(clusters.mirror(name, topic).build());
        try {
            awaitTrue("partition 0 stopped at its gap", () -> mirror.engine().partitionsStoppedAtGap().containsKey(p0));
            assertTrue(mirror.engine().partitionsStoppedAtGap().get(p0).contains("offsets 100 to 149 were deleted"),
                    mirror.engine().partitionsStoppedAtGap().toString());
            produce(topic, 1, 50);
            awaitTrue("partition 1 copied on, past what came after the stop",
                    () -> mirror.engine().partitions().stream().anyMatch(s -> s.partition().partition() == 1
                            && s.committedOffset() == 250));
            assertEquals(Health.RUNNING, mirror.engine().health(), "the other partition's copying goes on");
        } finally {
            mirror.close();
        }
        assertEquals(Health.FAILED, mirror.engine().health(), "a loss is never a clean stop");
        assertTrue(mirror.engine().failure().orElseThrow().getMessage().contains(topic + "-0: offsets 100 to 149 "
                + "were deleted"), mirror.engine().failure().toString());
        var copies = Clusters.partitions(clusters.target(), topic);
        assertEquals(100, copies.get(0).size(), "nothing of partition 0 copied past the gap");
        assertEquals(250, copies.get(1).size(), "every record of partition 1, once");
        var progress = clusters.target().admin().listConsumerGroupOffsets(bounded.progressGroup())
                .partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS);
        assertEquals(100, progress.get(p0).offset(), "the stopped partition's progress stays where its loss begins");
    }

    @Test
    void aSourceTopicDeletedAndCreatedAgainStopsTheMirror() throws Exception {
        String topic = topicOf50("recreated");
        MirrorConfig config = clusters.mirror(Names.unique("recreated"), topic).untilEnd(true).build();
        assertEquals(Health.STOPPED, run(config).health);

        createAgainWith20(topic);
        Ended second = run(config);
        assertEquals(Health.FAILED, second.health, "a new topic of the same name is not the one the progress is of");
        assertTrue(second.failure.contains("topic deleted and created again"), second.failure);
        assertEquals(50, Clusters.partitions(clusters.target(), topic).get(0).size(), "nothing of the new topic copied");
        // the audit read the new topic toward the old progress, waited 30 s and asked whether the cluster was reachable
        MirrorAuditException e = assertThrows(MirrorAuditException.class,
                () -> MirrorAudit.run(MirrorAuditConfig.builder(config).build()));
        assertTrue(e.getMessage().startsWith("the mirror's progress on " + topic + "-0 (offset 50) is past the source "
                + "partition's end (20): the source topic was deleted and created again"), e.getMessage());
    }

    @Test
    void aGroupOfASourceTopicCreatedAgainIsNotTranslatedIntoTheEarlierTopicsCopies() throws Exception {
        // the new topic's offset 10 is not the earlier topic's: translated into its copy, a group failing over read
        // another topic's records from there (a review)
        String topic = topicOf50("recreated-group");
        String group = Names.unique("app");
        MirrorConfig config = clusters.mirror(Names.unique("recreated-group"), topic)
                .groups(Pattern.compile(Pattern.quote(group))).untilEnd(true).build();
        assertEquals(Health.STOPPED, run(config).health);
        createAgainWith20(topic);
        Map<String, Object> props = new HashMap<>(clusters.source().clientProperties(Listener.PLAINTEXT));
        props.put("group.id", group);
        try (var consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.commitSync(Map.of(new TopicPartition(topic, 0), new OffsetAndMetadata(10)));
        }

        GroupTranslationReport report = GroupTranslationReport.of(config);
        assertEquals(1, report.rows().size(), report.text());
        PartitionTranslation row = report.rows().get(0).translation();
        assertTrue(row.notTranslated().orElse("").contains("created again"), report.text());
        assertEquals(OptionalLong.empty(), row.translation(), report.text());
        assertTrue(report.text().contains("the source topic was created again"), report.text());
    }

    /**
     * Exactly once, then at least once after the source topic was deleted and created again: the progress exactly once
     * left in the target is of the earlier topic. Taken as the later commit, it stopped every claim as "created again",
     * and no reset of the source group could get past it; it is left, and the new topic is copied from its start.
     * (At least once, copies without progress may be a first window's, copied again by design: only warned of.)
     */
    @Test
    void theOtherDeliverysProgressOfAnEarlierTopicOfTheSameNameIsLeft() throws Exception {
        String topic = topicOf50("recreated-switch");
        String name = Names.unique("recreated-switch");
        assertEquals(Health.STOPPED, run(clusters.mirror(name, topic).untilEnd(true).build()).health);

        createAgainWith20(topic);
        Ended atLeastOnce = run(clusters.mirror(name, topic).delivery(MirrorDelivery.AT_LEAST_ONCE).untilEnd(true)
                .build());
        assertEquals(Health.STOPPED, atLeastOnce.health, atLeastOnce.failure);
        assertEquals(70, Clusters.partitions(clusters.target(), topic).get(0).size(),
                "the earlier topic's 50 copies, then the new topic's 20");
    }

    /**
     * A mirror's progress lost while the target holds its copies (stopped longer than the target's
     * offsets.retention.minutes, 7 days by default: here its group deleted): the exactly-once mirror copied everything
     * the source still held a second time, with a warning that called the copies "aborted" (a review). Copies that a
     * read_committed reader sees were committed with progress, so it is refused in words now, nothing copied twice.
     */
    @Test
    void aMirrorWhoseProgressWasLostDoesNotCopyAgainWhatTheTargetHolds() throws Exception {
        String topic = topicOf50("lost-progress");
        MirrorConfig config = clusters.mirror(Names.unique("lost-progress"), topic).untilEnd(true).build();
        assertEquals(Health.STOPPED, run(config).health);
        clusters.target().admin().deleteConsumerGroups(List.of(config.progressGroup())).all()
                .get(30, TimeUnit.SECONDS);

        Ended again = run(config);
        assertEquals(Health.FAILED, again.health, again.failure);
        assertTrue(again.failure.contains("--group " + config.progressGroup() + " --reset-offsets --topic " + topic
                + ":0 --to-offset 50 --execute"), again.failure);
        assertEquals(50, Clusters.partitions(clusters.target(), topic).get(0).size(), "nothing copied twice");
    }

    /** A new source topic of one partition holding records 0 to 49. */
    private String topicOf50(String name) {
        String topic = Names.unique(name);
        clusters.source().createTopic(topic, 1);
        TestRecords.produceNumbered(clusters.source().clientProperties(Listener.PLAINTEXT), topic, 0, 50);
        return topic;
    }

    /** Deletes {@code topic} and creates it again, holding 20 records. */
    private void createAgainWith20(String topic) throws Exception {
        clusters.source().admin().deleteTopics(List.of(topic)).all().get(30, TimeUnit.SECONDS);
        awaitGone(topic);
        clusters.source().createTopic(topic, 1);
        TestRecords.produceNumbered(clusters.source().clientProperties(Listener.PLAINTEXT), topic, 100, 20);
    }

    /** Until the source no longer lists the topic: a create before that finds the old one still there. */
    private void awaitGone(String topic) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (clusters.source().admin().listTopics().names().get(30, TimeUnit.SECONDS).contains(topic)) {
            assertTrue(System.nanoTime() < deadline, topic + " still listed 30 s after its deletion");
            Thread.sleep(50);
        }
    }

    /** {@code count} records more at the end of one partition of the source topic. */
    private void produce(String topic, int partition, int count) throws Exception {
        try (var producer = new KafkaProducer<>(TestRecords.producerProperties(clusters.source()
                .clientProperties(Listener.PLAINTEXT)), new StringSerializer(), new StringSerializer())) {
            for (int i = 0; i < count; i++) {
                producer.send(new ProducerRecord<>(topic, partition, "k" + i, "v" + i));
            }
            producer.flush();
        }
    }

    private static void awaitTrue(String what, java.util.function.BooleanSupplier condition) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "60 s without " + what);
            Thread.sleep(20);
        }
    }

    private Ended run(MirrorConfig config) {
        try (Mirror mirror = Mirror.start(config)) {
            assertTrue(mirror.awaitTermination(Duration.ofSeconds(60)), "the mirror ends by itself");
            return new Ended(mirror.engine().health(),
                    mirror.engine().failure().map(Throwable::toString).orElse(""));
        }
    }

    private record Ended(Health health, String failure) {
    }
}
