package io.sluice.mirror.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.core.Health;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.mirror.Clusters;
import io.sluice.mirror.Mirror;
import io.sluice.mirror.MirrorConfig;
import io.sluice.mirror.MirrorDelivery;
import io.sluice.mirror.audit.MirrorAudit;
import io.sluice.mirror.audit.MirrorAuditConfig;
import io.sluice.mirror.audit.MirrorAuditReport;
import io.sluice.mirror.audit.PartitionAudit;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A mirror that fails while one target broker does not answer closes at once, instead of waiting for copies that can
 * no longer count: broker 2 of a two-broker target leads one partition copied into and coordinates the progress
 * group, and is black-holed. Exactly once, the other partition's commit gives up ({@code max.block.ms}, 5 s here) while
 * the first partition's copies wait on broker 2; at least once, that partition's checkpoint gives up after 30 s. The
 * engine then abandons what it had not committed: before, closing took 146 s (exactly once: the producers' delivery
 * timeout) and 30 s (at least once: a checkpoint's wait), and the restart behind it waited as long. Once broker 2
 * answers again, a restarted mirror reaches the end and the audit finds every record copied, exactly once (at least
 * once: copied again only after the last commit): nothing was lost.
 */
@Tag("slow")
class FailedMirrorCloseTest {

    private static final Duration PROMPT_CLOSE = Duration.ofSeconds(15);

    @ParameterizedTest
    @EnumSource(MirrorDelivery.class)
    void aMirrorThatFailedClosesWithoutWaitingForCopiesThatCanNoLongerCount(MirrorDelivery delivery) throws Exception {
        try (KafkaCluster target = KafkaCluster.builder().name("mirror-failed-close").proxied().start()) {
            target.addBroker(null);
            Clusters clusters = new Clusters(SharedKafka.cluster(), target);
            SourceTopic topic = new SourceTopic(clusters.source(), "mfclose", 2);
            target.createTopic(new NewTopic(topic.name(), Map.of(0, List.of(1), 1, List.of(2))));
            topic.produce(200);
            String name = nameCoordinatedByBroker2(target);
            MirrorConfig config = clusters.mirror(name, topic.name()).delivery(delivery)
                    .targetProperty("max.block.ms", 5_000)
                    .build();
            try (Mirror mirror = Mirror.start(config)) {
                TargetState.await("the first records copied", Duration.ofSeconds(60),
                        () -> mirror.counts().copied() >= 200);
                try (SourceTopic.Feed feed = topic.feed()) {
                    TimeUnit.SECONDS.sleep(1);
                    target.node(2).proxy().blackhole();
                    long cut = System.nanoTime();
                    TargetState.await("the mirror failing", Duration.ofSeconds(90),
                            () -> mirror.engine().health() != Health.RUNNING);
                    long failed = System.nanoTime();
                    assertTrue(mirror.awaitTermination(Duration.ofSeconds(200)), "the mirror stops");
                    Duration closing = Duration.ofNanos(System.nanoTime() - failed);
                    System.out.printf("[failed-close] %s: failed %.1f s after the cut, closed %.1f s later%n",
                            delivery, (failed - cut) / 1e9, closing.toMillis() / 1e3);
                    assertEquals(Health.FAILED, mirror.engine().health());
                    assertTrue(closing.compareTo(PROMPT_CLOSE) < 0, "closed within " + PROMPT_CLOSE + ": " + closing);
                }
            }
            target.node(2).proxy().restore();
            MirrorConfig again = clusters.mirror(name, topic.name()).delivery(delivery).untilEnd(true).build();
            try (Mirror mirror = Mirror.start(again)) {
                assertTrue(mirror.awaitTermination(Duration.ofSeconds(120)), "the restarted mirror reaches the end");
                assertEquals(Health.STOPPED, mirror.engine().health(), () -> "the restarted mirror: "
                        + mirror.engine().failure());
            }
            if (delivery == MirrorDelivery.EXACTLY_ONCE) {
                TargetState.assertExactlyOnce(clusters, again, topic);
            } else {
                // at least once, the copies after the last commit before the failure are copied again
                MirrorAuditReport audit = MirrorAudit.run(MirrorAuditConfig.builder(again).build());
                for (PartitionAudit partition : audit.partitions()) {
                    assertEquals(0, partition.missing(), audit::toText);
                    assertEquals(0, partition.mismatches(), audit::toText);
                    assertEquals(0, partition.lostBeforeCopy(), audit::toText);
                    System.out.printf("[failed-close] partition %d: %d copied again%n", partition.partition(),
                            partition.duplicates());
                }
            }
        }
    }

    /**
     * A mirror name whose progress group broker 2 coordinates: the leader of the offsets topic's partition the group
     * hashes to, as the broker computes it (the topic now exists, spread over both brokers).
     */
    private static String nameCoordinatedByBroker2(KafkaCluster target) throws Exception {
        target.admin().listConsumerGroupOffsets("any").partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS);
        TopicDescription offsets = target.admin().describeTopics(List.of("__consumer_offsets")).allTopicNames()
                .get(30, TimeUnit.SECONDS).get("__consumer_offsets");
        assertTrue(offsets.partitions().stream().anyMatch(p -> p.leader().id() == 2), "broker 2 leads some: " + offsets);
        while (true) {
            String name = Names.unique("mfclose");
            int partition = Utils.abs((MirrorConfig.GROUP_PREFIX + name).hashCode()) % offsets.partitions().size();
            if (offsets.partitions().get(partition).leader().id() == 2) {
                return name;
            }
        }
    }
}
