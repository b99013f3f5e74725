package io.sluice.mirror.groups;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.core.Health;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.mirror.Clusters;
import io.sluice.mirror.Mirror;
import io.sluice.mirror.MirrorConfig;
import io.sluice.mirror.MirrorProgress;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import io.sluice.testkit.kafka.TestRecords;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A target partition that does not answer leaves its own translation out, with why, and the group's other partitions
 * are translated all the same: one offline partition held up every group that read it, each round (a review).
 */
@Tag("slow")
class PartitionTranslationFailureTest {

    private static final Duration SHORT = Duration.ofSeconds(3);

    @Test
    void aPartitionWhoseTargetDoesNotAnswerIsLeftOutAndTheOthersAreTranslated() throws Exception {
        try (KafkaCluster target = KafkaCluster.builder().name("translate-cut").proxied().start()) {
            target.addBroker(null);
            Clusters clusters = new Clusters(SharedKafka.cluster(), target);
            String one = Names.unique("cut-one");
            String two = Names.unique("cut-two");
            for (String topic : List.of(one, two)) {
                clusters.source().createTopic(topic, 1);
                TestRecords.produceNumbered(clusters.source().clientProperties(Listener.PLAINTEXT), topic, 0, 10);
            }
            // each copied into a partition of its own broker
            target.createTopic(new NewTopic(one, Map.of(0, List.of(1))));
            target.createTopic(new NewTopic(two, Map.of(0, List.of(2))));
            MirrorConfig config = clusters.mirror(Names.unique("cut"), one, two).untilEnd(true).build();
            try (Mirror mirror = Mirror.start(config)) {
                assertTrue(mirror.awaitTermination(Duration.ofSeconds(60)), "a bounded mirror ends");
                assertEquals(Health.STOPPED, mirror.engine().health(), () -> "failed: " + mirror.engine().failure());
            }
            // the broker cut off is the one that does not coordinate the mirror's progress, which every translation
            // reads
            int coordinator = target.admin().describeConsumerGroups(List.of(config.progressGroup())).all()
                    .get(30, TimeUnit.SECONDS).get(config.progressGroup()).coordinator().id();
            int cut = coordinator == 1 ? 2 : 1;
            TopicPartition answering = new TopicPartition(cut == 2 ? one : two, 0);
            TopicPartition silent = new TopicPartition(cut == 2 ? two : one, 0);
            String sourceCluster = clusters.source().admin().describeCluster().clusterId().get(30, TimeUnit.SECONDS);
            try (MirrorProgress progress = MirrorProgress.of(config, SHORT);
                    TargetCopies copies = new TargetCopies(config.targetProperties(), sourceCluster, SHORT)) {
                OffsetTranslator translator = new OffsetTranslator(config, progress, copies,
                        OffsetTranslator.FORWARD_SCAN);
                Map<TopicPartition, Long> asked = Map.of(answering, 4L, silent, 4L);
                // asked once before the cut, so that the clients know the coordinator and the leaders
                Map<TopicPartition, Long> before = translator.translate(asked, Map.of(), Map.of()).offsets();
                assertEquals(asked.keySet(), before.keySet(), "both translated while both answer");
                target.node(cut).proxy().blackhole();
                translator.startRound();
                OffsetTranslator.Translated translated = translator.translate(asked, Map.of(), Map.of());
                assertEquals(Map.of(answering, before.get(answering)), translated.offsets(),
                        "the answering partition is translated");
                assertEquals(List.of(silent), List.copyOf(translated.notTranslated().keySet()));
                assertTrue(!translated.notTranslated().get(silent).isBlank(), "says why");
            } finally {
                target.node(cut).proxy().restore();
            }
        }
    }
}
