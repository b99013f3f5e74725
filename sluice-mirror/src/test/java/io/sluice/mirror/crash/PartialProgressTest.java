package io.sluice.mirror.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.core.Health;
import io.sluice.mirror.Clusters;
import io.sluice.mirror.Mirror;
import io.sluice.mirror.MirrorConfig;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * A restart that finds progress in the target for some partitions and none for others, as after a crash in the very
 * first commits (MirrorCrashTest found it at {@code transaction.before-commit:1}): the partitions without progress
 * start at the source's beginning, the others where their progress says. The source group of an exactly-once mirror
 * never has offsets of its own, so no partition may be left for the consumer to look up there.
 */
class PartialProgressTest {

    private final Clusters clusters = new Clusters(SharedKafka.cluster(), SharedKafka.second());

    @Test
    void aRestartWithProgressForTheLastPartitionOnlyCopiesEveryPartitionOnce() throws Exception {
        SourceTopic topic = new SourceTopic(clusters.source(), "mpartial", 3);
        topic.produceTo(2, 40);
        MirrorConfig config = clusters.mirror(Names.unique("mpartial"), topic.name()).untilEnd(true).build();
        runToEnd(config);
        // the empty partitions' progress (offset 0) is as good as none: take it away, as if the first commits of
        // partitions 0 and 1 never happened
        clusters.target().admin().deleteConsumerGroupOffsets(config.progressGroup(),
                Set.of(new TopicPartition(topic.name(), 0), new TopicPartition(topic.name(), 1)))
                .all().get(30, TimeUnit.SECONDS);
        assertEquals(Map.of(2, 40L), TargetState.committed(clusters.target(), config, topic.name(), 3),
                "progress for the last partition only");

        topic.produceTo(0, 30);
        topic.produceTo(1, 30);
        runToEnd(config);
        TargetState.assertExactlyOnce(clusters, config, topic);
    }

    private static void runToEnd(MirrorConfig config) {
        try (Mirror mirror = Mirror.start(config)) {
            assertTrue(mirror.awaitTermination(Duration.ofSeconds(60)), "a bounded mirror ends at the end offsets");
            assertEquals(Health.STOPPED, mirror.engine().health(),
                    () -> "failed: " + mirror.engine().failure().orElse(null));
        }
    }
}
