package io.sluice.mirror.topics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.mirror.copy.TopicNaming;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * When the other delivery's place does not answer: exactly once fails the claim with the client's timeout as the
 * cause (one the command starts a new engine for), at least once goes on from its own commits when it has them.
 */
class EarlierDeliveryTest {

    private static final TopicPartition P0 = new TopicPartition("orders", 0);
    private static final TopicPartition P1 = new TopicPartition("orders", 1);
    /** Nothing listens on port 1: every request waits until the claim's deadline. */
    private final Admin nobody = Admin.create(Map.of("bootstrap.servers", "127.0.0.1:1"));

    @AfterEach
    void close() {
        nobody.close(Duration.ZERO);
    }

    @Test
    void exactlyOnceFailsTheClaimSoThatARestartTriesAgain() {
        EarlierDelivery earlier = EarlierDelivery.atLeastOnce(nobody, "sluice-mirror.m", TopicNaming.identity(), "m");
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> later(earlier, Map.of(P0, new OffsetAndMetadata(5), P1, new OffsetAndMetadata(7))));
        assertTrue(e.getMessage().startsWith("cannot read what mirror 'm' committed at least once (group "
                + "'sluice-mirror.m' in the source cluster), which it goes on from if its delivery was changed: no "
                + "answer in time; a restart tries again"), e.getMessage());
        assertInstanceOf(TimeoutException.class, e.getCause(), "a failure a new engine cures");
    }

    @Test
    void atLeastOnceGoesOnFromItsOwnCommitsOnlyWhenEveryPartitionHasOne() {
        EarlierDelivery earlier = EarlierDelivery.exactlyOnce(nobody, nobody, "sluice-mirror.m",
                TopicNaming.identity(), "m");
        Map<TopicPartition, OffsetAndMetadata> own = Map.of(P0, new OffsetAndMetadata(5), P1, new OffsetAndMetadata(7));
        assertEquals(own, later(earlier, own));
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> later(earlier, Map.of(P0, new OffsetAndMetadata(5))));
        assertTrue(e.getMessage().contains("(group 'sluice-mirror.m' in the target cluster)"), e.getMessage());
    }

    private static Map<TopicPartition, OffsetAndMetadata> later(EarlierDelivery earlier,
            Map<TopicPartition, OffsetAndMetadata> claimed) {
        EarlierDelivery.Asked asked = earlier.ask(Set.of(P0, P1));
        long deadline = System.nanoTime() + Duration.ofMillis(500).toNanos();
        return earlier.later(Set.of(P0, P1), claimed, asked, CompletableFuture.completedFuture(Map.of()), deadline);
    }
}
