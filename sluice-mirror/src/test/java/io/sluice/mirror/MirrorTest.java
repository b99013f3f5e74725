package io.sluice.mirror;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.core.Health;
import io.sluice.local.kafka.Listener;
import io.sluice.mirror.copy.TopicNaming;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/** A mirror copies records byte for byte into the same partition, once, under either delivery, and never loops. */
class MirrorTest {

    private final Clusters clusters = new Clusters(SharedKafka.cluster(), SharedKafka.second());

    @Test
    void copiesEveryRecordExactlyOnceByteForByteAndARestartCopiesNothingMore() throws Exception {
        String topic = sourceTopic("exact", 3, 600);
        MirrorConfig config = clusters.mirror(Names.unique("exact"), topic).untilEnd(true).build();
        assertEquals(600, runToEnd(config).copied());
        clusters.assertSameRecords(topic, topic);
        assertEquals(0, runToEnd(config).copied(), "the progress in the target says everything was copied");
        clusters.assertSameRecords(topic, topic);
    }

    @Test
    void atLeastOnceCopiesEveryRecordWithATemplateName() throws Exception {
        String topic = sourceTopic("alo", 2, 400);
        MirrorConfig config = clusters.mirror(Names.unique("alo"), topic).delivery(MirrorDelivery.AT_LEAST_ONCE)
                .naming(TopicNaming.prefix("dc1.")).untilEnd(true).build();
        assertEquals(400, runToEnd(config).copied());
        clusters.assertSameRecords(topic, "dc1." + topic);
        assertEquals(0, runToEnd(config).copied(), "the source group's commits say everything was copied");
    }

    /**
     * Each delivery keeps the progress in its own place (the source group, the target's transactions): a mirror whose
     * delivery was changed started over from the source's beginning and copied every record again (a new user's run).
     */
    @Test
    void aChangeOfDeliveryGoesOnFromWhereTheOtherDeliveryCommitted() throws Exception {
        String topic = sourceTopic("switch", 2, 300);
        String name = Names.unique("switch");
        MirrorConfig atLeastOnce = clusters.mirror(name, topic).delivery(MirrorDelivery.AT_LEAST_ONCE).untilEnd(true)
                .build();
        MirrorConfig exactlyOnce = clusters.mirror(name, topic).untilEnd(true).build();
        assertEquals(300, runToEnd(atLeastOnce).copied());
        assertEquals(0, runToEnd(exactlyOnce).copied(), "exactly once goes on where at least once committed");
        produce(topic, 2, 300, 100);
        assertEquals(100, runToEnd(exactlyOnce).copied());
        produce(topic, 2, 400, 100);
        assertEquals(100, runToEnd(atLeastOnce).copied(), "at least once goes on where exactly once committed");
        clusters.assertSameRecords(topic, topic);
    }

    /**
     * The other delivery's progress outlives its target: the source group still says how far at least once copied
     * after the target topic is another (created again, another cluster, another topic name). Taken there, exactly
     * once would leave every record before it uncopied (a review found it before any user).
     */
    @Test
    void theOtherDeliverysProgressIsNotTakenWhenTheTargetNoLongerHoldsItsCopies() throws Exception {
        String topic = sourceTopic("switch-target", 2, 200);
        String name = Names.unique("switch-target");
        assertEquals(200, runToEnd(clusters.mirror(name, topic).delivery(MirrorDelivery.AT_LEAST_ONCE).untilEnd(true)
                .build()).copied());
        MirrorConfig elsewhere = clusters.mirror(name, topic).naming(TopicNaming.prefix("again.")).untilEnd(true)
                .build();
        assertEquals(200, runToEnd(elsewhere).copied(), "an empty target topic gets every record");
        clusters.assertSameRecords(topic, "again." + topic);
    }

    @Test
    void aMirrorBackToTheClusterARecordCameFromSkipsIt() throws Exception {
        String topic = sourceTopic("loop", 1, 50);
        assertEquals(50, runToEnd(clusters.mirror(Names.unique("there"), topic).untilEnd(true).build()).copied());
        Clusters back = new Clusters(clusters.target(), clusters.source());
        Mirror.Counts returned = runToEnd(back.mirror(Names.unique("back"), topic).untilEnd(true).build());
        assertEquals(0, returned.copied(), "nothing goes back where it came from");
        assertEquals(50, returned.cameFromTarget());
        assertEquals(50, Clusters.partitions(clusters.source(), topic).get(0).size(), "the source holds no copies");
    }

    /**
     * A source record stamped hours ahead (the source topic takes it): since Kafka 4.0 a broker refuses one more than
     * an hour ahead by default, and the target topic the mirror made stopped it at that record at every start (a
     * review). Target topics it makes take any timestamp now.
     */
    @Test
    void aRecordStampedHoursAheadIsCopiedWithItsTimestamp() throws Exception {
        String topic = Names.unique("ahead");
        clusters.source().createTopic(new org.apache.kafka.clients.admin.NewTopic(topic, 1, (short) 1).configs(Map.of(
                "message.timestamp.after.max.ms", Long.toString(Long.MAX_VALUE))));
        long ahead = System.currentTimeMillis() + 3 * 3_600_000L;
        try (var producer = new KafkaProducer<>(clusters.source().clientProperties(Listener.PLAINTEXT),
                new ByteArraySerializer(), new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>(topic, 0, ahead, bytes("k"), bytes("v"))).get();
        }
        assertEquals(1, runToEnd(clusters.mirror(Names.unique("ahead"), topic).untilEnd(true).build()).copied());
        clusters.assertSameRecords(topic, topic);
        assertEquals(ahead, Clusters.partitions(clusters.target(), topic).get(0).get(0).timestamp());
    }

    /**
     * Within one cluster every record names it, so the check for records that came back from the target skipped an
     * earlier mirror's copies there: X:raw copied to X:copy, then X:copy to X:backup copied nothing (a review).
     */
    @Test
    void aMirrorWithinOneClusterCopiesAnEarlierMirrorsCopies() throws Exception {
        String topic = sourceTopic("within", 1, 30);
        Clusters one = new Clusters(clusters.source(), clusters.source());
        assertEquals(30, runToEnd(one.mirror(Names.unique("within"), topic).naming(TopicNaming.prefix("copy."))
                .untilEnd(true).build()).copied());
        Mirror.Counts again = runToEnd(one.mirror(Names.unique("within-again"), "copy." + topic)
                .naming(TopicNaming.prefix("backup.")).untilEnd(true).build());
        assertEquals(30, again.copied());
        assertEquals(0, again.cameFromTarget());
    }

    /** A commit interval the target's transaction timeout cannot hold is refused at once, in words. */
    @Test
    void aCommitIntervalPastHalfTheTransactionTimeoutIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> clusters.mirror("m", "t")
                .commitInterval(Duration.ofSeconds(40)).build());
        assertTrue(e.getMessage().startsWith("the commit interval (40000 ms) must be less than half the target "
                + "producer's transaction.timeout.ms (60000 ms)"), e.getMessage());
        assertDoesNotThrow(() -> clusters.mirror("m", "t").commitInterval(Duration.ofSeconds(40))
                .targetProperty("transaction.timeout.ms", 120_000).build(), "a longer timeout holds it");
        assertDoesNotThrow(() -> clusters.mirror("m", "t").commitInterval(Duration.ofSeconds(40))
                .delivery(MirrorDelivery.AT_LEAST_ONCE).build(), "at least once commits no transaction");
    }

    @Test
    void aStartThatFailsLeavesNoClientOfItsOwnOpen() throws Exception {
        String topic = sourceTopic("failed", 1, 1);
        // the engine's consumer refuses this setting after the mirror made its transactions and its admin clients
        MirrorConfig config = clusters.mirror(Names.unique("failed"), topic).sourceProperty("max.poll.records", 0)
                .build();
        Set<ObjectName> adminsBefore = mbeans("kafka.admin.client:type=app-info,*");

        ConfigException refused = assertThrows(ConfigException.class, () -> Mirror.start(config));
        assertTrue(refused.getMessage().contains("max.poll.records"), refused.getMessage());

        // a Kafka client registers its app-info MBean when made and removes it when closed
        assertEquals(Set.of(), mbeans("kafka.consumer:type=app-info,id=*" + config.progressGroup() + "*"),
                "the transactions' progress reader");
        // none made since is left; one closing from an earlier test may be gone by now
        Set<ObjectName> adminsLeft = mbeans("kafka.admin.client:type=app-info,*");
        assertTrue(adminsBefore.containsAll(adminsLeft), () -> "the mirror's admin clients left open: " + adminsLeft);
    }

    private Mirror.Counts runToEnd(MirrorConfig config) {
        try (Mirror mirror = Mirror.start(config)) {
            assertTrue(mirror.awaitTermination(Duration.ofSeconds(60)), "a bounded mirror ends at the end offsets");
            assertEquals(Health.STOPPED, mirror.engine().health(),
                    () -> "failed: " + mirror.engine().failure().orElse(null));
            return mirror.counts();
        }
    }

    /**
     * Records with keys, null keys, tombstones, headers (one repeated) and timestamps from the last hour (older ones
     * would meet the brokers' retention).
     */
    private String sourceTopic(String name, int partitions, int records) throws Exception {
        String topic = Names.unique(name);
        clusters.source().createTopic(topic, partitions);
        produce(topic, partitions, 0, records);
        return topic;
    }

    /** Records {@code from} to {@code from + count} of the kind {@link #sourceTopic} writes, into {@code topic}. */
    private void produce(String topic, int partitions, int from, int count) throws Exception {
        Map<String, Object> props = new HashMap<>(clusters.source().clientProperties(Listener.PLAINTEXT));
        props.put("enable.idempotence", true);
        long anHourAgo = System.currentTimeMillis() - 3_600_000;
        try (var producer = new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int i = from; i < from + count; i++) {
                RecordHeaders headers = new RecordHeaders();
                headers.add("h", bytes("a" + i));
                headers.add("h", bytes("b" + i));
                byte[] key = i % 7 == 0 ? null : bytes("k" + i);
                byte[] value = i % 11 == 0 ? null : bytes("v" + i);
                producer.send(new ProducerRecord<>(topic, i % partitions, anHourAgo + i, key, value,
                        headers));
            }
            producer.flush();
        }
    }

    private static Set<ObjectName> mbeans(String pattern) throws MalformedObjectNameException {
        return ManagementFactory.getPlatformMBeanServer().queryNames(new ObjectName(pattern), null);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
