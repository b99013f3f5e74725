package io.sluice.mirror;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.core.Health;
import io.sluice.local.kafka.Listener;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import io.sluice.testkit.kafka.GroupHolder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
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
        // a member that never copies holds every partition first, so that neither instance can end before both own
        // partitions (else the first to join might copy everything alone)
        try (GroupHolder holder = new GroupHolder(clusters.source().clientProperties(Listener.PLAINTEXT),
                config.sourceGroup(), topic)) {
            holder.pollUntil(() -> holder.held() == PARTITIONS, Duration.ofSeconds(60),
                    "the holder owns every partition");
            try (Mirror first = Mirror.start(config); Mirror second = Mirror.start(config)) {
                // the holder keeps polling, so that it takes part in the rebalances that give the mirrors partitions
                holder.pollUntil(() -> !first.engine().partitions().isEmpty()
                        && !second.engine().partitions().isEmpty(), Duration.ofSeconds(60),
                        "both instances own partitions");
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
