package io.sluice.mirror.topics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.local.kafka.KafkaCluster;
import io.sluice.mirror.copy.TopicNaming;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** The target topics of a mirror of named topics are made ready ahead of the first claim, on real clusters. */
class TargetTopicsTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final KafkaCluster source = SharedKafka.cluster();
    private final KafkaCluster target = SharedKafka.second();

    @Test
    void namedTopicsAreMadeReadyBeforeAnyClaimAskedAndAClaimThenFindsThemReady() throws Exception {
        String topic = Names.unique("ahead");
        source.createTopic(new NewTopic(topic, 3, (short) 1).configs(Map.of("retention.ms", "86400000")));
        TopicNaming naming = TopicNaming.prefix("ahead.");
        TargetTopics topics = new TargetTopics(new ClusterTopics(source.admin(), TIMEOUT),
                new ClusterTopics(target.admin(), TIMEOUT), naming, Optional.empty());

        topics.prepareAhead(List.of(topic));

        String made = naming.target(topic);
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (!target.admin().listTopics().names().get(30, TimeUnit.SECONDS).contains(made)) {
            assertTrue(System.nanoTime() < deadline, made + " was not made ahead within " + TIMEOUT);
            Thread.sleep(50);
        }
        assertEquals(3, target.admin().describeTopics(List.of(made)).allTopicNames().get(30, TimeUnit.SECONDS)
                .get(made).partitions().size(), "the source's partition count");
        topics.ensure(Set.of(new TopicPartition(topic, 0), new TopicPartition(topic, 2)));
        assertEquals(Set.of(topic), topics.prepared(), "ready, once, for the topic sync to follow");
    }

    /**
     * A target topic made by hand on LogAppendTime would give the copies the time of the copy: the claim says so (the
     * copies lost their timestamps without a word), and a topic the mirror makes keeps them.
     */
    @Test
    void aTargetTopicOnAppendTimeIsSaidAndOneTheMirrorMakesKeepsTimestamps() throws Exception {
        String byHand = Names.unique("append-time");
        String made = Names.unique("create-time");
        source.createTopic(byHand, 1);
        source.createTopic(made, 1);
        target.createTopic(new NewTopic(byHand, 1, (short) 1).configs(Map.of("message.timestamp.type",
                "LogAppendTime")));
        ClusterTopics targetTopics = new ClusterTopics(target.admin(), TIMEOUT);
        TargetTopics topics = new TargetTopics(new ClusterTopics(source.admin(), TIMEOUT), targetTopics,
                TopicNaming.identity(), Optional.empty());

        topics.ensure(Set.of(new TopicPartition(byHand, 0), new TopicPartition(made, 0)));

        assertEquals(Set.of(byHand), topics.appendTimeTargets());
        assertTrue(targetTopics.describe(List.of(byHand)).get(byHand).appendTime());
        assertFalse(targetTopics.describe(List.of(made)).get(made).appendTime());
    }

    /**
     * A target topic deleted while the mirror runs (its progress goes with it) is made again by the next claim of its
     * partitions: the topic sync forgets it was made, which it did not, so the claim skipped it for good.
     */
    @Test
    void aTargetTopicDeletedWhileTheMirrorRunsIsMadeAgainByTheNextClaim() throws Exception {
        String topic = Names.unique("deleted");
        source.createTopic(topic, 2);
        TopicNaming naming = TopicNaming.prefix("gone.");
        ClusterTopics targetTopics = new ClusterTopics(target.admin(), TIMEOUT);
        TargetTopics topics = new TargetTopics(new ClusterTopics(source.admin(), TIMEOUT), targetTopics, naming,
                Optional.empty());
        Set<TopicPartition> claimed = Set.of(new TopicPartition(topic, 0), new TopicPartition(topic, 1));
        topics.ensure(claimed);
        String made = naming.target(topic);
        try (TopicSync sync = TopicSync.start(new ClusterTopics(source.admin(), TIMEOUT), targetTopics, topics, naming,
                Duration.ofMillis(100), "deleted")) {
            target.admin().deleteTopics(List.of(made)).all().get(30, TimeUnit.SECONDS);
            long deadline = System.nanoTime() + TIMEOUT.toNanos();
            while (topics.prepared().contains(topic)) {
                assertTrue(System.nanoTime() < deadline, "the sync did not notice the deletion within " + TIMEOUT);
                Thread.sleep(50);
            }
        }
        topics.ensure(claimed);
        assertEquals(2, target.admin().describeTopics(List.of(made)).allTopicNames().get(30, TimeUnit.SECONDS)
                .get(made).partitions().size(), "made again, with the source's partitions");
        assertEquals(Set.of(topic), topics.prepared());
    }

    @Test
    void aTopicThatCouldNotBeMadeAheadIsReportedByTheClaimThatNeedsIt() {
        String missing = Names.unique("not-there");
        TargetTopics topics = new TargetTopics(new ClusterTopics(source.admin(), TIMEOUT),
                new ClusterTopics(target.admin(), TIMEOUT), TopicNaming.prefix("ahead."), Optional.empty());

        topics.prepareAhead(List.of(missing));

        IllegalStateException error = assertThrows(IllegalStateException.class,
                () -> topics.ensure(Set.of(new TopicPartition(missing, 0))));
        assertTrue(error.getMessage().contains(missing), error.getMessage());
        assertEquals(Set.of(), topics.prepared());
    }
}
