package io.sluice.mirror.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
import org.apache.kafka.common.Node;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A mirror that fails while one target broker does not answer closes at once, instead of waiting for copies that can
 * no longer count: broker 2 of a two-broker target leads one partition copied into and coordinates the progress
 * group, and is black-holed. Exactly once, the other partition's commit gives up ({@code max.block.ms}, 5 s here) while
 * the first partition's copies wait on broker 2; at least once, that partition's copies expire (the producer's
 * {@code delivery.timeout.ms}, 15 s here). The engine then abandons what it had not committed: before, closing took
 * 146 s (exactly once: the producers' delivery timeout, two minutes by default) and 30 s (at least once: a checkpoint's
 * wait), and the restart behind it waited as long. Once broker 2
 * answers again, a restarted mirror reaches the end and the audit finds every record copied, exactly once (at least
 * once: copied again only after the last commit): nothing was lost.
 */
@Tag("slow")
class FailedMirrorCloseTest {

    private static final Duration PROMPT_CLOSE = Duration.ofSeconds(15);
    /** The engine's default, which the mirror keeps. */
    private static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(30);

    /** Two brokers behind fault proxies, shared by the cases (each with topics and a mirror of its own). */
    private static KafkaCluster target;

    @BeforeAll
    static void startTarget() {
        target = KafkaCluster.builder().name("mirror-failed-close").proxied().start();
        target.addBroker(null);
    }

    @AfterAll
    static void stopTarget() {
        if (target != null) {
            target.close();
        }
    }

    @ParameterizedTest
    @EnumSource(MirrorDelivery.class)
    void aMirrorThatFailedClosesWithoutWaitingForCopiesThatCanNoLongerCount(MirrorDelivery delivery) throws Exception {
        try (Outage outage = Outage.prepare(target, "mfclose")) {
            MirrorConfig config = outage.mirror().delivery(delivery)
                    .targetProperty("max.block.ms", 5_000)
                    .targetProperty("request.timeout.ms", 5_000)
                    .targetProperty("delivery.timeout.ms", 15_000)
                    .build();
            try (Mirror mirror = Mirror.start(config)) {
                TargetState.await("the first records copied", Duration.ofSeconds(60),
                        () -> mirror.counts().copied() >= Outage.RECORDS);
                try (SourceTopic.Feed feed = outage.topic.feed()) {
                    TimeUnit.SECONDS.sleep(1);
                    outage.cutBroker2();
                    long cut = System.nanoTime();
                    TargetState.await("the mirror failing", Duration.ofSeconds(90),
                            () -> mirror.engine().health() != Health.RUNNING);
                    long failed = System.nanoTime();
                    assertTrue(mirror.awaitTermination(Duration.ofSeconds(200)), "the mirror stops");
                    Duration closing = Duration.ofNanos(System.nanoTime() - failed);
                    System.out.printf("[failed-close] %s: failed %.1f s after the cut, closed %.1f s later%n",
                            delivery, (failed - cut) / 1e9, closing.toMillis() / 1e3);
                    assertEquals(Health.FAILED, mirror.engine().health());
                    // the failure reported is the outage's (a commit or a send that gave up on broker 2, or copies not
                    // acknowledged), not what letting go of the rest caused after it
                    String cause = mirror.engine().failure().map(Throwable::getMessage).orElse("");
                    assertFalse(cause.isEmpty() || cause.contains("earlier failure")
                            || cause.contains("when the mirror stopped"), cause);
                    assertTrue(closing.compareTo(PROMPT_CLOSE) < 0, "closed within " + PROMPT_CLOSE + ": " + closing);
                }
            }
            MirrorConfig again = outage.healAndRestartToTheEnd(delivery);
            if (delivery == MirrorDelivery.EXACTLY_ONCE) {
                TargetState.assertExactlyOnce(outage.clusters, again, outage.topic);
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
     * Stopped (as by SIGTERM) while broker 2 does not answer: a failure during the drain (here the commit under way
     * giving up; else the last call to the stuck partition's lane overrunning the drain timeout) lets go of the rest at
     * once; before, each of the remaining calls to that lane waited out the drain timeout again (100 s with the
     * defaults).
     */
    @Test
    void aMirrorStoppedWhileATargetBrokerDoesNotAnswerStopsWithinTheDrainTimeout() throws Exception {
        try (Outage outage = Outage.prepare(target, "mfstop")) {
            // the commit under way waits on the silent coordinator for max.block.ms, which no close cuts short; it fails
            // during the drain, and the partition stuck behind broker 2 is let go of then, not when the drain gets to
            // waiting for it (the drain timeout itself, when no commit fails: 30.1 s measured)
            MirrorConfig config = outage.mirror().targetProperty("max.block.ms", 5_000).build();
            Mirror mirror = Mirror.start(config);
            try {
                TargetState.await("the first records copied", Duration.ofSeconds(60),
                        () -> mirror.counts().copied() >= Outage.RECORDS);
                try (SourceTopic.Feed feed = outage.topic.feed()) {
                    TimeUnit.SECONDS.sleep(1);
                    outage.cutBroker2();
                    TimeUnit.SECONDS.sleep(3);
                }
            } finally {
                long stopping = System.nanoTime();
                mirror.close();
                Duration stopped = Duration.ofNanos(System.nanoTime() - stopping);
                System.out.printf("[failed-close] stopped during the outage in %.1f s: %s%n", stopped.toMillis() / 1e3,
                        mirror.engine().failure().map(Throwable::getMessage).orElse("cleanly"));
                assertTrue(stopped.compareTo(DRAIN_TIMEOUT) < 0, "stopped within the drain timeout: " + stopped);
            }
            MirrorConfig again = outage.healAndRestartToTheEnd(MirrorDelivery.EXACTLY_ONCE);
            TargetState.assertExactlyOnce(outage.clusters, again, outage.topic);
        }
    }

    /**
     * A two-broker target behind fault proxies, a source topic of two partitions whose target partition 0 broker 1
     * leads and partition 1 broker 2, and a mirror name whose progress group broker 2 coordinates: cutting broker 2
     * off holds up partition 1's copies and every commit.
     */
    private record Outage(KafkaCluster target, Clusters clusters, SourceTopic topic, String name)
            implements AutoCloseable {

        static final int RECORDS = 200;

        static Outage prepare(KafkaCluster target, String prefix) throws Exception {
            Clusters clusters = new Clusters(SharedKafka.cluster(), target);
            SourceTopic topic = new SourceTopic(clusters.source(), prefix, 2);
            target.createTopic(new NewTopic(topic.name(), Map.of(0, List.of(1), 1, List.of(2))));
            topic.produce(RECORDS);
            return new Outage(target, clusters, topic, nameCoordinatedByBroker2(target, prefix));
        }

        MirrorConfig.Builder mirror() {
            return clusters.mirror(name, topic.name());
        }

        void cutBroker2() {
            target.node(2).proxy().blackhole();
        }

        /** Broker 2 answers again; the mirror, restarted, copies to the source's end. */
        MirrorConfig healAndRestartToTheEnd(MirrorDelivery delivery) {
            target.node(2).proxy().restore();
            MirrorConfig again = mirror().delivery(delivery).untilEnd(true).build();
            try (Mirror mirror = Mirror.start(again)) {
                assertTrue(mirror.awaitTermination(Duration.ofSeconds(120)), "the restarted mirror reaches the end");
                assertEquals(Health.STOPPED, mirror.engine().health(), () -> "the restarted mirror: "
                        + mirror.engine().failure());
            }
            return again;
        }

        /** Broker 2 answers again for the next case, whatever became of this one. */
        @Override
        public void close() {
            target.node(2).proxy().restore();
        }

        /** The leader of the offsets topic's partition the group hashes to, as the broker computes it. */
        private static String nameCoordinatedByBroker2(KafkaCluster target, String prefix) throws Exception {
            // the offsets topic now made, spread over both brokers
            target.admin().listConsumerGroupOffsets("any").partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS);
            TopicDescription offsets = target.admin().describeTopics(List.of("__consumer_offsets")).allTopicNames()
                    .get(30, TimeUnit.SECONDS).get("__consumer_offsets");
            assertTrue(offsets.partitions().stream().anyMatch(p -> p.leader() != null && p.leader().id() == 2),
                    "broker 2 leads some: " + offsets);
            while (true) {
                String name = Names.unique(prefix);
                int partition = Utils.abs((MirrorConfig.GROUP_PREFIX + name).hashCode()) % offsets.partitions().size();
                Node leader = offsets.partitions().get(partition).leader();
                if (leader != null && leader.id() == 2) {
                    return name;
                }
            }
        }
    }
}
