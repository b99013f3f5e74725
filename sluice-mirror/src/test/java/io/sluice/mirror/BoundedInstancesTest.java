package io.sluice.mirror;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.core.Health;
import io.sluice.local.kafka.Listener;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/**
 * Several instances of one exactly-once mirror run until the end (issue 13): each learns that the partitions the
 * others copy are done from the progress in the target, the only place an exactly-once mirror keeps it.
 *
 * <p>Threading: the test thread; the mirrors run their own.
 */
class BoundedInstancesTest {

    private static final int PARTITIONS = 4;
    private static final int RECORDS = 800;

    private final Clusters clusters = new Clusters(SharedKafka.cluster(), SharedKafka.second());

    @Test
    void twoInstancesOfAnExactlyOnceMirrorUntilTheEndBothEndAndCopyEveryRecordOnce() throws Exception {
        String topic = sourceTopic();
        MirrorConfig config = clusters.mirror(Names.unique("two"), topic).untilEnd(true).build();
        // A member of the mirror's source group that never copies holds every partition first, so neither instance
        // can reach the end before both own partitions: without it the first instance to join could copy everything
        // alone and the split this test is about might not happen.
        try (KafkaConsumer<byte[], byte[]> holder = holder(config.sourceGroup(), topic)) {
            pollUntil(holder, () -> holder.assignment().size() == PARTITIONS, "the holder owns every partition");
            try (Mirror first = Mirror.start(config); Mirror second = Mirror.start(config)) {
                // the holder keeps polling, so that it takes part in the rebalances that give the mirrors partitions
                pollUntil(holder, () -> !first.engine().partitions().isEmpty()
                        && !second.engine().partitions().isEmpty(), "both instances own partitions");
                holder.close(); // leaves the group: its partitions go to the two instances, which now split them all
                assertTrue(first.awaitTermination(Duration.ofSeconds(60)),
                        "the first instance ends: " + first.engine().stats());
                assertTrue(second.awaitTermination(Duration.ofSeconds(60)),
                        "the second instance ends: " + second.engine().stats());
                assertEquals(Health.STOPPED, first.engine().health(),
                        () -> "failed: " + first.engine().failure().orElse(null));
                assertEquals(Health.STOPPED, second.engine().health(),
                        () -> "failed: " + second.engine().failure().orElse(null));
                assertTrue(first.counts().copied() > 0 && second.counts().copied() > 0,
                        "both instances copied: " + first.counts() + " / " + second.counts());
                assertEquals(RECORDS, first.counts().copied() + second.counts().copied(),
                        "no record copied by both: " + first.counts() + " / " + second.counts());
            }
        }
        clusters.assertSameRecords(topic, topic);
    }

    /** Polls the holder until {@code done}; fails after 60 s. */
    private static void pollUntil(KafkaConsumer<byte[], byte[]> holder, java.util.function.BooleanSupplier done,
            String what) {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!done.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "within 60 s: " + what + "; holder has " + holder.assignment());
            holder.poll(Duration.ofMillis(100));
        }
    }

    /**
     * A plain member of the mirror's group, with the mirrors' assignor and lowered session timeout, that never
     * commits: its records are never fetched (it starts at the end and the topic is not written to again).
     */
    private KafkaConsumer<byte[], byte[]> holder(String group, String topic) {
        Map<String, Object> props = new HashMap<>(clusters.source().clientProperties(Listener.PLAINTEXT));
        props.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        props.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, CooperativeStickyAssignor.class.getName());
        props.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, 6_000);
        props.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, 500);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
        KafkaConsumer<byte[], byte[]> holder = new KafkaConsumer<>(props, new ByteArrayDeserializer(),
                new ByteArrayDeserializer());
        holder.subscribe(Set.of(topic));
        return holder;
    }

    /** Records in every partition, with keys and values that tell them apart. */
    private String sourceTopic() {
        String topic = Names.unique("bounded");
        clusters.source().createTopic(topic, PARTITIONS);
        Map<String, Object> props = new HashMap<>(clusters.source().clientProperties(Listener.PLAINTEXT));
        props.put("enable.idempotence", true);
        try (var producer = new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int i = 0; i < RECORDS; i++) {
                producer.send(new ProducerRecord<>(topic, i % PARTITIONS, bytes("k" + i), bytes("v" + i)));
            }
            producer.flush();
        }
        return topic;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
