package io.sluice.mirror.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.local.kafka.KafkaCluster;
import io.sluice.mirror.Clusters;
import io.sluice.mirror.Mirror;
import io.sluice.mirror.MirrorConfig;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * One target broker cut off from the mirror alone (behind its fault proxy, while the cluster still sees it): the mirror
 * names that broker, with what it does for the copy, and does not call the whole target silent; when the broker
 * answers again the copy goes on, and the target is an exact copy. Looked at once a second, as the progress line does.
 */
@Tag("slow")
class TargetBrokerSilenceTest {

    /** How the broker is cut off: its requests held with no answer, or its connections reset. */
    enum Cut {
        BLACK_HOLE, CONNECTIONS_RESET
    }

    @ParameterizedTest
    @EnumSource(Cut.class)
    void aTargetBrokerCutOffFromTheMirrorAloneIsNamedAndTheClusterIsNotCalledSilent(Cut how) throws Exception {
        try (KafkaCluster target = KafkaCluster.builder().name("mirror-broker-cut").proxied().start()) {
            target.addBroker(null);
            Clusters clusters = new Clusters(SharedKafka.cluster(), target);
            SourceTopic topic = new SourceTopic(clusters.source(), "mbcut", 2);
            // target partition 0 on broker 1, partition 1 on broker 2: the cut broker leads a partition copied into
            target.createTopic(new NewTopic(topic.name(), Map.of(0, List.of(1), 1, List.of(2))));
            topic.produce(200);
            MirrorConfig config = clusters.mirror(Names.unique("mbcut"), topic.name()).build();
            try (Mirror mirror = Mirror.start(config)) {
                TargetState.await("the first records copied", Duration.ofSeconds(60),
                        () -> mirror.counts().copied() >= 200);
                try (SourceTopic.Feed feed = topic.feed()) {
                    for (int i = 0; i < 3; i++) { // looked at from before the cut, as a run's progress line does
                        assertEquals(Optional.empty(), mirror.targetUnreachable());
                        TimeUnit.SECONDS.sleep(1);
                    }
                    if (how == Cut.BLACK_HOLE) {
                        target.node(2).proxy().blackhole();
                    } else {
                        target.node(2).proxy().cut();
                    }
                    long cut = System.nanoTime();
                    Optional<Duration> clusterSilent = Optional.empty();
                    while (!mirror.targetBrokersUnanswered().containsKey(2)) {
                        // each look is the progress line's: it watches the cluster and its brokers (every second: a
                        // look only while the cluster was not yet called silent missed the broker named after it)
                        clusterSilent = look(mirror, clusterSilent);
                        assertEquals(Optional.empty(), clusterSilent, "broker 1 answers: the target cluster is not "
                                + "silent, " + Duration.ofNanos(System.nanoTime() - cut).toSeconds() + " s after the cut");
                        assertTrue(System.nanoTime() - cut < Duration.ofSeconds(40).toNanos(),
                                "broker 2 named within 40 s of the cut; unanswered: "
                                        + mirror.targetBrokersUnanswered());
                        TimeUnit.SECONDS.sleep(1);
                    }
                    Duration named = Duration.ofNanos(System.nanoTime() - cut);
                    System.out.println("[target-broker-cut] " + how + ": broker 2 named after " + named);
                    assertTrue(named.compareTo(Duration.ofSeconds(15)) >= 0, "not before the grace: " + named);
                    for (int i = 0; i < 5; i++) { // five more seconds of looks: still broker 2, not the cluster
                        clusterSilent = look(mirror, clusterSilent);
                        TimeUnit.SECONDS.sleep(1);
                    }
                    assertEquals(Optional.empty(), clusterSilent, "broker 1 answers: the target cluster is not silent");
                    assertEquals(List.of(2), List.copyOf(mirror.targetBrokersUnanswered().keySet()));

                    target.node(2).proxy().restore();
                    TargetState.await("broker 2 answers again", Duration.ofSeconds(60), () -> {
                        mirror.targetUnreachable();
                        return mirror.targetBrokersUnanswered().isEmpty();
                    });
                }
                topic.produce(50);
                TargetState.await("the mirror at the source's end", Duration.ofSeconds(120), () -> {
                    try {
                        assertTrue(mirror.engine().failure().isEmpty(), () -> "the mirror failed: "
                                + mirror.engine().failure().get());
                        return TargetState.atEnd(clusters, config, topic);
                    } catch (AssertionError e) {
                        throw e;
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                });
            }
            TargetState.assertExactlyOnce(clusters, config, topic);
        }
    }

    /** One look, as the progress line's; returns the first silence of the whole target said, if any. */
    private static Optional<Duration> look(Mirror mirror, Optional<Duration> saidBefore) {
        Optional<Duration> now = mirror.targetUnreachable();
        return saidBefore.or(() -> now);
    }
}
