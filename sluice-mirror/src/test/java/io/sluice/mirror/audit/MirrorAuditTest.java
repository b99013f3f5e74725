package io.sluice.mirror.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.core.Health;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.mirror.Mirror;
import io.sluice.mirror.MirrorConfig;
import io.sluice.mirror.MirrorDelivery;
import io.sluice.mirror.copy.Provenance;
import io.sluice.mirror.copy.TopicNaming;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import io.sluice.testkit.kafka.TestRecords;
import io.sluice.testkit.kafka.TimestamplessRecord;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/**
 * The audit of a real mirror between two clusters: clean after a mirror copied a source with transactions (one
 * aborted, so that source and target offsets differ), then a duplicate, a changed copy and a missing copy written into
 * the target by hand, each named as its partition's first difference with the right offsets.
 */
class MirrorAuditTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long AN_HOUR_AGO = System.currentTimeMillis() - 3_600_000;

    private final KafkaCluster source = SharedKafka.cluster();
    private final KafkaCluster target = SharedKafka.second();

    @Test
    void aCleanMirrorIsCleanAndEveryChangeToTheTargetIsNamedAsTheFirstDifference() throws Exception {
        String orders = Names.unique("orders");
        String events = Names.unique("events");
        source.createTopic(orders, 2);
        source.createTopic(events, 1);
        writeInTransactions(orders, 2);
        writeInTransactions(events, 1);
        MirrorConfig mirror = mirror(orders, events).build();
        assertEquals(3 * 40, runToEnd(mirror), "the aborted records are not copied");

        MirrorAuditReport clean = MirrorAudit.run(MirrorAuditConfig.builder(mirror).build());
        assertTrue(clean.clean(), clean::toText);
        assertEquals(3, clean.partitions().size());
        for (PartitionAudit p : clean.partitions()) {
            assertEquals(40, p.sourceRecords());
            assertEquals(40, p.copies());
            assertEquals(p.sourceHash(), p.targetHash());
            assertEquals(48, p.progress(), "the log's end: the source offsets below it hold 5 aborted records and 3 "
                    + "transaction markers besides the 40 copied, and the last marker holds no progress back");
        }

        String sourceCluster = source.admin().describeCluster().clusterId().get(30, TimeUnit.SECONDS);
        ConsumerRecord<byte[], byte[]> fourth = TestRecords.readAll(source.clientProperties(Listener.PLAINTEXT),
                orders, Duration.ofSeconds(30)).stream().filter(r -> r.partition() == 0).skip(3).findFirst()
                .orElseThrow();
        long duplicate = copyByHand(orders, 0, fourth.value(), fourth.headers(), sourceCluster, fourth.offset());
        long changedAt = send(source, orders, 1, "new", new RecordHeaders());
        long changed = copyByHand(orders, 1, bytes("changed"), new RecordHeaders(), sourceCluster, changedAt);
        long skippedAt = send(source, events, 0, "skipped", new RecordHeaders());
        long nextAt = send(source, events, 0, "next", new RecordHeaders());
        long next = copyByHand(events, 0, bytes("next"), new RecordHeaders(), sourceCluster, nextAt);

        MirrorAuditReport changes = MirrorAudit.run(MirrorAuditConfig.builder(mirror).untilSourceEnd(true).build());
        assertFalse(changes.clean());
        PartitionAudit ordersZero = changes.partition(orders, 0).orElseThrow();
        assertEquals(1, ordersZero.duplicates());
        assertEquals(Optional.of("target offset " + duplicate + " is a second copy of source offset "
                + fourth.offset()), ordersZero.firstDifference());
        assertTrue(ordersZero.onlyDuplicates(), "its one difference is a second copy");
        PartitionAudit ordersOne = changes.partition(orders, 1).orElseThrow();
        assertEquals(1, ordersOne.mismatches());
        assertFalse(ordersOne.onlyDuplicates());
        assertEquals(Optional.of("source offset " + changedAt + " (target offset " + changed + "): the value differs"),
                ordersOne.firstDifference());
        PartitionAudit eventsZero = changes.partition(events, 0).orElseThrow();
        assertEquals(1, eventsZero.missing());
        assertEquals(Optional.of("source offset " + skippedAt + " has no copy; the copies go on at source offset "
                + nextAt + " (target offset " + next + ")"), eventsZero.firstDifference());
        assertFalse(eventsZero.onlyDuplicates());
        assertFalse(changes.onlyDuplicates(), "a copy is missing and another changed");
        assertTrue(changes.toText().contains(eventsZero.firstDifference().get()), changes::toText);
        assertTrue(changes.toText().contains("): DIFFERENCES in 3 of 3 partitions\n"), changes::toText);
        JsonNode json = JSON.readTree(changes.toJson());
        assertEquals(1, json.get("exitStatus").asInt());
        assertEquals("differences", json.get("status").asText());
        int ordersOneAt = changes.partitions().indexOf(ordersOne);
        assertEquals(ordersOne.firstDifference().get(),
                json.get("partitions").get(ordersOneAt).get("firstDifference").asText());

        PartitionAudit pastProgress = MirrorAudit.run(MirrorAuditConfig.builder(mirror).build())
                .partition(orders, 1).orElseThrow();
        assertEquals(1, pastProgress.beyondProgress(), "the mirror never copied the new record: its progress is older");
        assertFalse(pastProgress.clean(), "exactly once, a read_committed reader must see no copy beyond the progress");
    }

    @Test
    void atLeastOnceTheProgressIsTheSourceGroupsAndTheTargetTopicsHaveTheirTemplateNames() throws Exception {
        String topic = Names.unique("alo");
        source.createTopic(topic, 1);
        writeInTransactions(topic, 1);
        MirrorConfig mirror = mirror(topic).delivery(MirrorDelivery.AT_LEAST_ONCE).naming(TopicNaming.prefix("dc1."))
                .build();
        assertEquals(40, runToEnd(mirror));
        MirrorAuditReport report = MirrorAudit.run(MirrorAuditConfig.builder(mirror).build());
        assertTrue(report.clean(), report::toText);
        PartitionAudit audit = report.partitions().get(0);
        assertEquals("dc1." + topic, audit.targetTopic());
        assertEquals(40, audit.copies());
        assertEquals(48, audit.progress(), "the source group's committed offset: the log's end, past the last marker");
        assertEquals(audit.sourceHash(), audit.targetHash());

        // what a restart of an at-least-once mirror leaves: a record copied a second time after its copy
        String sourceCluster = source.admin().describeCluster().clusterId().get(30, TimeUnit.SECONDS);
        ConsumerRecord<byte[], byte[]> first = TestRecords.readAll(source.clientProperties(Listener.PLAINTEXT), topic,
                Duration.ofSeconds(30)).get(0);
        RecordHeaders again = new RecordHeaders(first.headers().toArray());
        again.add(Provenance.HEADER, Provenance.value(sourceCluster, first.offset()));
        send(target, "dc1." + topic, 0, first.value(), again);
        MirrorAuditReport resent = MirrorAudit.run(MirrorAuditConfig.builder(mirror).build());
        assertTrue(resent.onlyDuplicates(), resent::toText);
        assertEquals(1, resent.exitStatus(), "the target does not hold each record exactly once");
        assertTrue(resent.toText().startsWith("Mirror " + mirror.name() + " (at least once): DUPLICATES ONLY in 1 of 1 "
                + "partitions: every committed source record has its copy, in order and unchanged, and 1 has a second "
                + "copy, as at-least-once delivery leaves after a restart (exactly-once delivery leaves none)\n"),
                resent::toText);
        assertTrue(resent.toText().contains("dc1." + topic + "-0: DUPLICATES\n"), resent::toText);
        assertEquals("duplicates-only", JSON.readTree(resent.toJson()).get("status").asText());
    }

    /**
     * A transaction open in the target hides what follows it from read_committed readers, and a commit's markers land
     * just after the commit returned: the audit waits for every transaction below the target's log end to be decided,
     * and names one that stays open instead of comparing what it hides (the audit said clean before).
     */
    @Test
    void aTransactionLeftOpenInTheTargetIsNamedNotLookedPast() throws Exception {
        String topic = Names.unique("open");
        source.createTopic(topic, 1);
        writeInTransactions(topic, 1);
        MirrorConfig mirror = mirror(topic).build();
        assertEquals(40, runToEnd(mirror));
        Map<String, Object> props = new HashMap<>(target.clientProperties(Listener.PLAINTEXT));
        props.put("transactional.id", Names.unique("stray"));
        try (var producer = new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>(topic, 0, bytes("k"), bytes("undecided")));
            producer.flush();
            MirrorAuditException open = assertThrows(MirrorAuditException.class,
                    () -> MirrorAudit.run(MirrorAuditConfig.builder(mirror).timeout(Duration.ofSeconds(2)).build()));
            assertTrue(open.getMessage().startsWith("a transaction has stayed open for 2 s in the target at " + topic
                    + "-0 (from offset "), open.getMessage());
            producer.abortTransaction();
        }
        MirrorAuditReport decided = MirrorAudit.run(MirrorAuditConfig.builder(mirror).build());
        assertTrue(decided.clean(), decided::toText);
    }

    private MirrorConfig.Builder mirror(String... topics) {
        return MirrorConfig.builder().name(Names.unique("audited"))
                .sourceProperties(source.clientProperties(Listener.PLAINTEXT))
                .targetProperties(target.clientProperties(Listener.PLAINTEXT))
                .topics(topics).commitInterval(Duration.ofMillis(200)).untilEnd(true);
    }

    /** Runs a bounded mirror to its end; how many records it copied. */
    /**
     * A source record without a timestamp (CreateTime -1, as Go and other clients write when the application sets
     * none): the Java producer refuses a negative timestamp, and the mirror stopped at that record at every start
     * ("Invalid timestamp: -1"). The copy gets the time of the copy, and the audit counts the timestamp as kept.
     */
    @Test
    void aRecordWithoutATimestampIsCopiedAndTheAuditIsClean() throws Exception {
        String topic = Names.unique("no-timestamp");
        source.createTopic(topic, 1);
        try (var producer = new KafkaProducer<>(source.clientProperties(Listener.PLAINTEXT), new ByteArraySerializer(),
                new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>(topic, 0, AN_HOUR_AGO, bytes("k0"), bytes("stamped"))).get();
            producer.send(new TimestamplessRecord(topic, 0, bytes("k1"), bytes("unstamped"))).get();
            producer.send(new ProducerRecord<>(topic, 0, AN_HOUR_AGO, bytes("k2"), bytes("stamped"))).get();
        }
        List<ConsumerRecord<byte[], byte[]>> written = TestRecords.readAll(source.clientProperties(Listener.PLAINTEXT),
                topic, Duration.ofSeconds(30));
        assertEquals(-1, written.get(1).timestamp(), "the source holds a record without a timestamp");
        assertEquals(TimestampType.CREATE_TIME, written.get(1).timestampType());

        MirrorConfig mirror = mirror(topic).build();
        assertEquals(3, runToEnd(mirror));
        List<ConsumerRecord<byte[], byte[]>> copies = TestRecords.readAll(target.clientProperties(Listener.PLAINTEXT),
                topic, Duration.ofSeconds(30));
        assertEquals(List.of(AN_HOUR_AGO, AN_HOUR_AGO), List.of(copies.get(0).timestamp(), copies.get(2).timestamp()));
        assertTrue(copies.get(1).timestamp() > AN_HOUR_AGO, "stamped with the time of the copy");
        MirrorAuditReport audit = MirrorAudit.run(MirrorAuditConfig.builder(mirror).build());
        assertTrue(audit.clean(), audit::toText);
    }

    static long runToEnd(MirrorConfig config) {
        try (Mirror running = Mirror.start(config)) {
            assertTrue(running.awaitTermination(Duration.ofSeconds(60)), "a bounded mirror ends at the end offsets");
            assertEquals(Health.STOPPED, running.engine().health(), () -> "failed: " + running.engine().failure());
            return running.counts().copied();
        }
    }

    /**
     * Per partition: 20 records committed, 5 aborted, 20 committed, with keys, headers and timestamps from the last
     * hour (older ones would meet the brokers' retention).
     */
    private void writeInTransactions(String topic, int partitions) {
        Map<String, Object> props = new HashMap<>(source.clientProperties(Listener.PLAINTEXT));
        props.put("transactional.id", Names.unique("writer"));
        try (var producer = new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            producer.initTransactions();
            for (int round = 0; round < 3; round++) {
                producer.beginTransaction();
                for (int p = 0; p < partitions; p++) {
                    for (int i = 0; i < (round == 1 ? 5 : 20); i++) {
                        RecordHeaders headers = new RecordHeaders();
                        headers.add("round", bytes("r" + round));
                        producer.send(new ProducerRecord<>(topic, p, AN_HOUR_AGO + i, bytes("k" + i),
                                bytes("v" + round + "." + i), headers));
                    }
                }
                if (round == 1) {
                    producer.flush(); // records not yet sent would be dropped: the aborted ones must be in the log
                    producer.abortTransaction();
                } else {
                    producer.commitTransaction();
                }
            }
        }
    }

    /**
     * A partition that holds records but has no progress (added after the mirror's last run, or its progress expired)
     * was a note under a "CLEAN" headline, exit 0 (a review): nothing of it was compared. Not verified, exit 1.
     */
    @Test
    void aPartitionWithRecordsButNoProgressLeavesTheMirrorNotVerified() throws Exception {
        String topic = Names.unique("unprogressed");
        source.createTopic(topic, 2);
        writeInTransactions(topic, 2);
        MirrorConfig mirror = mirror(topic).build();
        runToEnd(mirror);
        target.admin().deleteConsumerGroupOffsets(mirror.progressGroup(), java.util.Set.of(new TopicPartition(topic,
                1))).all().get(30, TimeUnit.SECONDS);

        MirrorAuditReport report = MirrorAudit.run(MirrorAuditConfig.builder(mirror).build());
        assertTrue(report.unverified(), report::toText);
        assertEquals(1, report.exitStatus(), report::toText);
        assertTrue(report.toText().contains("NOT VERIFIED") && !report.toText().contains("CLEAN"), report::toText);
        assertTrue(report.toText().contains(topic + "-1 has no progress committed"), report::toText);
    }

    /**
     * A target topic with more partitions than its source: what its extra partitions hold was compared with nothing
     * (it was not read at all, and a copy there passed as clean). A note names each with records; a copy of a source
     * record there is a second copy, exit 1.
     */
    @Test
    void recordsInATargetPartitionNoSourcePartitionIsCopiedToAreNamedAndCopiesThereAreSecondCopies() throws Exception {
        String topic = Names.unique("strays");
        source.createTopic(topic, 2);
        writeInTransactions(topic, 2);
        MirrorConfig mirror = mirror(topic).build();
        runToEnd(mirror);
        target.admin().createPartitions(Map.of(topic, org.apache.kafka.clients.admin.NewPartitions.increaseTo(4)))
                .all().get(30, TimeUnit.SECONDS);
        send(target, topic, 2, "foreign", new RecordHeaders());
        assertTrue(MirrorAudit.run(MirrorAuditConfig.builder(mirror).build()).clean(), "a foreign record: a note only");
        String sourceCluster = source.admin().describeCluster().clusterId().get(30, TimeUnit.SECONDS);
        ConsumerRecord<byte[], byte[]> first = TestRecords.readAll(source.clientProperties(Listener.PLAINTEXT), topic,
                Duration.ofSeconds(30)).get(0);
        copyByHand(topic, 3, first.value(), first.headers(), sourceCluster, first.offset());

        MirrorAuditReport report = MirrorAudit.run(MirrorAuditConfig.builder(mirror).build());
        assertEquals(1, report.strayCopies(), report::toText);
        assertFalse(report.clean(), report::toText);
        assertTrue(report.onlyDuplicates(), "nothing is missing: the copy is a second one");
        assertEquals(1, report.exitStatus());
        assertTrue(report.notes().contains(topic + "-2: no source partition is copied to it, and it holds 1 record, "
                + "not compared with the source (no copy from the source cluster among them: written by something "
                + "else)"), report::toText);
        assertTrue(report.notes().contains(topic + "-3: no source partition is copied to it, and it holds 1 record, "
                + "not compared with the source; 1 of them is a copy from the source cluster, second copies of "
                + "records whose copies are compared in their own partition"), report::toText);
        assertTrue(report.toText().startsWith("Mirror " + mirror.name() + " (exactly once): DUPLICATES ONLY: every "
                + "committed source record has its copy, in order and unchanged, and 1 has a second copy (1 in target "
                + "partitions no source partition is copied to), which exactly-once delivery never writes"),
                report::toText);
    }

    /** Writes into the target what a mirror would write for source offset {@code sourceOffset}; its target offset. */
    private long copyByHand(String topic, int partition, byte[] value, Headers headers, String sourceCluster,
            long sourceOffset) throws Exception {
        RecordHeaders copied = new RecordHeaders(headers.toArray());
        copied.add(Provenance.HEADER, Provenance.value(sourceCluster, sourceOffset));
        return send(target, topic, partition, value, copied);
    }

    private static long send(KafkaCluster cluster, String topic, int partition, String value, Headers headers)
            throws Exception {
        return send(cluster, topic, partition, bytes(value), headers);
    }

    private static long send(KafkaCluster cluster, String topic, int partition, byte[] value, Headers headers)
            throws Exception {
        try (var producer = new KafkaProducer<>(cluster.clientProperties(Listener.PLAINTEXT), new ByteArraySerializer(),
                new ByteArraySerializer())) {
            return producer.send(new ProducerRecord<>(topic, partition, AN_HOUR_AGO, bytes("k"), value, headers))
                    .get(30, TimeUnit.SECONDS).offset();
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
