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
import org.junit.jupiter.api.Test;

/**
 * "Transaction markers never hold progress" (issue 13): a source partition whose log ends in a committed
 * transaction's marker, then an aborted transaction (its records and its marker), has nothing left to copy, so the
 * progress in the target must be the source's end offset, not the offset after the last record copied.
 */
class MirrorMarkerTest {

    private final Clusters clusters = new Clusters(SharedKafka.cluster(), SharedKafka.second());

    @Test
    void aSourceEndingInTransactionMarkersIsCopiedToItsEnd() throws Exception {
        SourceTopic topic = new SourceTopic(clusters.source(), "mmarker", 2);
        topic.produce(100);
        topic.commitAndAbort(20);
        MirrorConfig config = clusters.mirror(Names.unique("mmarker"), topic.name()).untilEnd(true).build();
        try (Mirror mirror = Mirror.start(config)) {
            assertTrue(mirror.awaitTermination(Duration.ofSeconds(60)), "a bounded mirror ends at the end offsets");
            assertEquals(Health.STOPPED, mirror.engine().health(),
                    () -> "failed: " + mirror.engine().failure().orElse(null));
        }
        TargetState.assertExactlyOnce(clusters, config, topic);
    }
}
