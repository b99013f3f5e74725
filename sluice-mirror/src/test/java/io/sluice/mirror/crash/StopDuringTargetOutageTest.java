package io.sluice.mirror.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.core.DrainAbandonedException;
import io.sluice.core.Health;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.mirror.Clusters;
import io.sluice.mirror.Mirror;
import io.sluice.mirror.MirrorConfig;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A mirror closed while its target cluster does not answer waited out the drain timeout at each step of its drain
 * (35–66 s, a helper's measure of the command) and then failed anyway. Now, once the target's silence has lasted the
 * grace, the drain stops waiting: it ends without its last commit, lets go of what was not committed, and says why;
 * the restart, once the target answers, copies on from the committed progress: every record once.
 */
@Tag("slow")
class StopDuringTargetOutageTest {

    @Test
    void aCloseWhileTheTargetDoesNotAnswerEndsAtOnceWithoutTheLastCommitAndLosesNothing() throws Exception {
        try (KafkaCluster target = KafkaCluster.builder().name("mirror-stop-outage").start()) {
            Clusters clusters = new Clusters(SharedKafka.cluster(), target);
            SourceTopic topic = new SourceTopic(clusters.source(), "mstop", 2);
            topic.produce(100);
            // the target is said silent after its request timeout when that is below 15 s: the test need not wait 15 s
            MirrorConfig config = clusters.mirror(Names.unique("mstop"), topic.name())
                    .targetProperty("request.timeout.ms", 3000).build();
            Mirror mirror = Mirror.start(config);
            try {
                TargetState.await("the first records copied", Duration.ofSeconds(60),
                        () -> mirror.counts().copied() >= 100);
                target.node(1).stop();
                topic.produce(100);
                // looked at once a second, as the progress line does
                TargetState.await("the target said silent", Duration.ofSeconds(60),
                        () -> mirror.targetUnreachable().isPresent());
            } catch (Throwable t) {
                mirror.close();
                throw t;
            }
            long asked = System.nanoTime();
            mirror.close();
            Duration took = Duration.ofNanos(System.nanoTime() - asked);
            System.out.println("[stop-during-outage] closed after " + took);
            assertTrue(took.compareTo(Duration.ofSeconds(10)) < 0, "the close did not wait for the target: " + took);
            assertEquals(Health.FAILED, mirror.engine().health());
            DrainAbandonedException left = assertInstanceOf(DrainAbandonedException.class,
                    mirror.engine().failure().orElseThrow());
            assertTrue(left.why().startsWith("the target cluster (" + target.bootstrapServers()
                    + ") has not answered for "), left.why());

            target.node(1).start();
            MirrorConfig toEnd = clusters.mirror(config.name(), topic.name()).untilEnd(true).build();
            try (Mirror restart = Mirror.start(toEnd)) {
                assertTrue(restart.awaitTermination(Duration.ofSeconds(90)), "the restart copied to the end");
                assertEquals(Health.STOPPED, restart.engine().health(),
                        () -> "the restart failed: " + restart.engine().failure().orElse(null));
            }
            TargetState.assertExactlyOnce(clusters, config, topic);
        }
    }

    /**
     * An idle mirror stopped while its target does not answer: nothing it sends shows the silence, and the group sync's
     * last round waited its 30 s, after one under way waited as long: the stop said "stopped cleanly" and the process
     * lived 40 s on, past a container's grace of 30 s (a chaos run). A stopped mirror's last round now has 10 s.
     */
    @Test
    void anIdleMirrorThatSyncsGroupsStopsWithinItsBoundWhileTheTargetDoesNotAnswer() throws Exception {
        try (KafkaCluster target = KafkaCluster.builder().name("mirror-stop-idle").start()) {
            Clusters clusters = new Clusters(SharedKafka.cluster(), target);
            SourceTopic topic = new SourceTopic(clusters.source(), "mstop-idle", 1);
            topic.produce(10);
            String group = Names.unique("app");
            Map<String, Object> props = new HashMap<>(clusters.source().clientProperties(Listener.PLAINTEXT));
            props.put("group.id", group);
            try (var consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
                consumer.commitSync(Map.of(new TopicPartition(topic.name(), 0), new OffsetAndMetadata(5)));
            }
            MirrorConfig config = clusters.mirror(Names.unique("mstop-idle"), topic.name())
                    .groups(Pattern.compile(Pattern.quote(group))).groupSyncInterval(Duration.ofMillis(300)).build();
            Mirror mirror = Mirror.start(config);
            long asked;
            try {
                TargetState.await("the records copied and the group synced", Duration.ofSeconds(60),
                        () -> mirror.counts().copied() >= 10 && mirror.groupSync().orElseThrow().rounds() >= 2);
                target.node(1).stop();
            } finally {
                asked = System.nanoTime();
                mirror.close();
            }
            Duration took = Duration.ofNanos(System.nanoTime() - asked);
            System.out.println("[stop-idle-during-outage] closed after " + took);
            assertTrue(took.compareTo(Duration.ofSeconds(20)) < 0, "the stop waited for the target: " + took);
        }
    }
}
