package io.sluice.mirror.audit;

import static io.sluice.mirror.audit.MirrorAuditTest.runToEnd;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.mirror.Clusters;
import io.sluice.mirror.MirrorConfig;
import io.sluice.mirror.copy.Provenance;
import io.sluice.testkit.Names;
import io.sluice.testkit.kafka.TestRecords;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A compacted source topic with updates and tombstones, mirrored, then compacted after the copy: first in the target
 * (which keeps the source's cleanup policy), then in the source, up to its tombstones expiring. The audit stays clean
 * through both, counting what each side's cleaner removed apart, and still finds a wrong copy of a key's latest record.
 *
 * <p>Segments roll by the records' timestamps ({@code segment.ms} is measured from a segment's first timestamp to the
 * next record's), so each round of records below is written with timestamps a second after the last round's, which
 * makes the segment of the rounds before it cleanable. The clusters are the test's own: their cleaners look for work
 * every 100 ms instead of every 15 s.
 */
@Tag("slow")
class CompactedMirrorAuditTest {

    private static final long T0 = System.currentTimeMillis() - 600_000;
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final List<String> TOMBSTONED = List.of("k0", "k1", "k2");
    private static final List<String> UPDATED = List.of("k3", "k4", "k5");

    @AutoClose
    private static KafkaCluster source;
    @AutoClose
    private static KafkaCluster target;

    @BeforeAll
    static void startClustersThatCleanQuickly() {
        source = KafkaCluster.builder().name("mirror-compact-source").brokerProperty("log.cleaner.backoff.ms", "100")
                .start();
        target = KafkaCluster.builder().name("mirror-compact-target").brokerProperty("log.cleaner.backoff.ms", "100")
                .start();
    }

    @Test
    void recordsCompactedAwayOnEitherSideAfterTheCopyAreCleanAndAWrongLatestCopyIsStillFound() throws Exception {
        String topic = Names.unique("compacted");
        source.createTopic(new NewTopic(topic, 1, (short) 1).configs(Map.of("cleanup.policy", "compact",
                "segment.ms", "100", "min.cleanable.dirty.ratio", "0.01", "delete.retention.ms", "5000",
                "min.compaction.lag.ms", "0")));
        MirrorConfig mirror = new Clusters(source, target).mirror(Names.unique("compacted"), topic).untilEnd(true)
                .build();

        // round 1: ten keys; round 2: each updated, three of them deleted; round 3: three updated twice
        List<ProducerRecord<byte[], byte[]>> rounds = new ArrayList<>();
        for (int k = 0; k < 10; k++) {
            rounds.add(record(topic, T0, "k" + k, "v1." + k));
        }
        for (int k = 0; k < 10; k++) {
            rounds.add(record(topic, T0 + 1_000, "k" + k, k < TOMBSTONED.size() ? null : "v2." + k));
        }
        send(source, rounds.toArray(ProducerRecord[]::new));
        assertEquals(20, runToEnd(mirror));
        List<ProducerRecord<byte[], byte[]>> round3 = new ArrayList<>();
        for (String version : List.of("v3a", "v3b")) {
            UPDATED.forEach(k -> round3.add(record(topic, T0 + 2_000, k, version + "." + k)));
        }
        send(source, round3.toArray(ProducerRecord[]::new));
        assertEquals(6, runToEnd(mirror));

        // the target's cleaner: a record of the target's own rolls the segment holding the copies of round 3, once
        // (a second roll would let it clean again and drop its tombstones, which the source's half below relies on).
        // It is stamped a second ahead of now: that segment may begin with a transaction marker, stamped when its
        // transaction committed, and which marker begins it depends on when the copy's commits came (an assignment's
        // first commit holds one record); a record stamped from T0 would not roll a segment begun by a marker
        send(target, record(topic, System.currentTimeMillis() + 1_000, "target-roll", "local"));
        awaitCleaned(target, topic, records -> records.stream().noneMatch(r -> hasValue(r, "v3a")), () -> { });
        MirrorAuditReport targetCompacted = MirrorAudit.run(MirrorAuditConfig.builder(mirror).build());
        assertTrue(targetCompacted.clean(), targetCompacted::toText);
        PartitionAudit inTarget = targetCompacted.partitions().get(0);
        assertTrue(inTarget.compactedInTarget() >= 6, "round 2 of k3..k5 and their first round-3 version, which "
                + "the source still holds: " + targetCompacted.toText());
        assertEquals(inTarget.sourceHash(), inTarget.targetHash());
        assertTrue(inTarget.fromElsewhere() > 0, "the target's own records are not copies");

        // the source's cleaner, at least twice: the updated and deleted keys' old records go, then the tombstones,
        // once delete.retention.ms (5 s) passed since the cleaner first saw them
        long[] sourceRolls = {0};
        awaitCleaned(source, topic, records -> records.stream().noneMatch(r -> r.value() == null
                || hasValue(r, "v3a") || hasValue(r, "v2.3")),
                () -> send(source, record(topic, T0 + 4_000 + 1_000 * sourceRolls[0]++, "source-roll", "r")));
        MirrorAuditReport sourceCompacted = MirrorAudit.run(MirrorAuditConfig.builder(mirror).build());
        assertTrue(sourceCompacted.clean(), sourceCompacted::toText);
        PartitionAudit inSource = sourceCompacted.partitions().get(0);
        long tombstoneCopies = TestRecords.readAll(target.clientProperties(Listener.PLAINTEXT), topic, WAIT).stream()
                .filter(r -> r.value() == null).count();
        assertEquals(TOMBSTONED.size(), tombstoneCopies, "the target was cleaned within 5 s of its first cleaning and "
                + "not written since: it keeps its tombstones");
        assertEquals(tombstoneCopies, inSource.compactedInSource(), "copies of the tombstones the source let expire: "
                + sourceCompacted.toText());
        assertEquals(0, inSource.notInSource());

        // a wrong copy of the latest record of a key is a difference, compacted or not
        assertTrue(runToEnd(mirror) > 0, "the source's roll records");
        long latestAt = send(source, record(topic, System.currentTimeMillis() - 60_000, "k7", "v5.7"));
        ConsumerRecord<byte[], byte[]> latest = TestRecords.readAll(source.clientProperties(Listener.PLAINTEXT), topic,
                WAIT).stream().filter(r -> r.offset() == latestAt).findFirst().orElseThrow();
        String sourceCluster = source.admin().describeCluster().clusterId().get(30, TimeUnit.SECONDS);
        RecordHeaders provenance = new RecordHeaders();
        provenance.add(Provenance.HEADER, Provenance.value(sourceCluster, latestAt));
        long wrongAt = send(target, new ProducerRecord<>(topic, 0, latest.timestamp(), latest.key(),
                bytes("v6.7"), provenance));
        MirrorAuditReport wrong = MirrorAudit.run(MirrorAuditConfig.builder(mirror).untilSourceEnd(true).build());
        assertFalse(wrong.clean());
        PartitionAudit found = wrong.partitions().get(0);
        assertEquals(1, found.mismatches(), wrong::toText);
        assertEquals(Optional.of("source offset " + latestAt + " (target offset " + wrongAt + "): the value differs"),
                found.firstDifference());
    }

    /**
     * A tombstone the source's cleaner removed before the mirror read it: the mirror copied the key's value earlier and
     * never learns of the deletion (Kafka does not say a fetch passed over removed records), so the target keeps a
     * value the source no longer holds. The audit names it; nothing else can.
     */
    @Test
    void aTombstoneRemovedBeforeItsCopyLeavesTheKeyInTheTargetAndTheAuditSaysSo() throws Exception {
        String topic = Names.unique("lost-tombstone");
        source.createTopic(new NewTopic(topic, 1, (short) 1).configs(Map.of("cleanup.policy", "compact",
                "segment.ms", "100", "min.cleanable.dirty.ratio", "0.01", "delete.retention.ms", "2000",
                "min.compaction.lag.ms", "0")));
        MirrorConfig mirror = new Clusters(source, target).mirror(Names.unique("lost-tombstone"), topic).untilEnd(true)
                .build();
        long copiedAt = send(source, record(topic, T0, "gone", "v1"));
        send(source, record(topic, T0, "kept", "v1"));
        assertEquals(2, runToEnd(mirror));
        send(source, record(topic, T0 + 1_000, "gone", null));
        long[] rolls = {0};
        awaitCleaned(source, topic, records -> records.stream().noneMatch(r -> text(r.key()).equals("gone")),
                () -> send(source, record(topic, T0 + 2_000 + 1_000 * rolls[0]++, "source-roll", "r")));
        assertTrue(runToEnd(mirror) > 0, "the source's roll records");

        MirrorAuditReport report = MirrorAudit.run(MirrorAuditConfig.builder(mirror).build());
        assertFalse(report.clean(), report::toText);
        PartitionAudit partition = report.partitions().get(0);
        assertEquals(1, partition.notInSource(), report::toText);
        String first = partition.firstDifference().orElseThrow();
        assertTrue(first.startsWith("target offset 0 is a copy of source offset " + copiedAt + ", which the source "
                + "does not hold read_committed nor any record of its key: the key was deleted"), first);
    }

    /**
     * Until {@code cleaned} holds for the topic's records (read_committed), running {@code roll} before each look (a
     * record that rolls a segment, so that the cleaner has one more to clean, or nothing).
     */
    private static void awaitCleaned(KafkaCluster cluster, String topic,
            Predicate<List<ConsumerRecord<byte[], byte[]>>> cleaned, Runnable roll) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (true) {
            roll.run();
            List<ConsumerRecord<byte[], byte[]>> records = TestRecords.readAll(
                    cluster.clientProperties(Listener.PLAINTEXT), topic, WAIT);
            if (cleaned.test(records)) {
                return;
            }
            assertTrue(System.nanoTime() < deadline, () -> topic + " not compacted within " + WAIT.toSeconds()
                    + " s; it holds " + records.stream().map(r -> r.offset() + " " + text(r.key()) + "="
                    + (r.value() == null ? "(tombstone)" : text(r.value()))).toList());
            Thread.sleep(200);
        }
    }

    /** Sends the records in order; the offset of the last. */
    @SafeVarargs
    private static long send(KafkaCluster cluster, ProducerRecord<byte[], byte[]>... records) {
        try (var producer = new KafkaProducer<>(cluster.clientProperties(Listener.PLAINTEXT), new ByteArraySerializer(),
                new ByteArraySerializer())) {
            long last = -1;
            for (ProducerRecord<byte[], byte[]> r : records) {
                last = producer.send(r).get(30, TimeUnit.SECONDS).offset();
            }
            return last;
        } catch (Exception e) {
            throw new IllegalStateException("cannot write to " + cluster, e);
        }
    }

    private static ProducerRecord<byte[], byte[]> record(String topic, long timestamp, String key, String value) {
        return new ProducerRecord<>(topic, 0, timestamp, bytes(key), value == null ? null : bytes(value));
    }

    private static boolean hasValue(ConsumerRecord<byte[], byte[]> r, String value) {
        return r.value() != null && text(r.value()).equals(value);
    }

    private static String text(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
