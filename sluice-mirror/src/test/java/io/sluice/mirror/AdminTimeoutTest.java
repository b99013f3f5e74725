package io.sluice.mirror;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How long the mirror's own requests wait for a cluster: what the file tells its clients, else 30 s. */
class AdminTimeoutTest {

    @Test
    void thirtySecondsUnlessTheClustersPropertiesSay() {
        assertEquals(Duration.ofSeconds(30), Mirror.adminTimeout(Map.of(), "max.block.ms"));
        assertEquals(Duration.ofSeconds(30), Mirror.adminTimeout(Map.of("linger.ms", 5), "max.block.ms"));
    }

    @Test
    void theClientsOwnWaitWhenTheFileSetsIt() {
        assertEquals(Duration.ofMillis(3_000), Mirror.adminTimeout(Map.of("max.block.ms", 3000), "max.block.ms"));
        assertEquals(Duration.ofMillis(90_000),
                Mirror.adminTimeout(Map.of("default.api.timeout.ms", " 90000"), "default.api.timeout.ms"));
    }

    @Test
    void atLeastASecondSinceAnAnswerNeedsARoundTrip() {
        assertEquals(Duration.ofSeconds(1), Mirror.adminTimeout(Map.of("max.block.ms", "0"), "max.block.ms"));
    }

    @Test
    void aValueThatIsNoNumberIsSaidInWords() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Mirror.adminTimeout(Map.of("max.block.ms", "soon"), "max.block.ms"));
        assertTrue(e.getMessage().contains("max.block.ms must be a number of milliseconds, not 'soon'"),
                e.getMessage());
    }
}
