package io.sluice.merge;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A merge's settings are checked when it is configured, before anything connects. */
class MergeConfigTest {

    /**
     * A commit interval the target's transaction timeout cannot hold: the cluster would abort every transaction
     * before its commit, and every start would fail at the same place (the mirror and produce refused it; the merge
     * did not).
     */
    @Test
    void aCommitIntervalPastHalfTheTransactionTimeoutIsRefusedExactlyOnce() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> config(Map.of()).commitInterval(Duration.ofSeconds(30)).build());
        assertEquals("commit-interval 30000 ms keeps each transaction open that long, and the target cluster aborts "
                + "one open past the producer's transaction.timeout.ms (60000 ms), so every start would fail at its "
                + "first commit: give less than 30000 ms, or raise transaction.timeout.ms in the target's properties "
                + "(now 60000 ms; the brokers allow up to their transaction.max.timeout.ms, 15 minutes by default)",
                e.getMessage());
        assertDoesNotThrow(() -> config(Map.of("transaction.timeout.ms", "90000"))
                .commitInterval(Duration.ofSeconds(30)).build(), "a longer timeout holds it");
        assertDoesNotThrow(() -> config(Map.of()).commitInterval(Duration.ofSeconds(30))
                .delivery(MergeDelivery.AT_LEAST_ONCE).build(), "at least once commits no transaction");
        IllegalArgumentException notANumber = assertThrows(IllegalArgumentException.class,
                () -> config(Map.of("transaction.timeout.ms", "soon")).build());
        assertEquals("the target's transaction.timeout.ms must be a number of milliseconds, not 'soon'",
                notANumber.getMessage());
    }

    private static MergeConfig.Builder config(Map<String, Object> producer) {
        Map<String, Object> target = new java.util.HashMap<>(producer);
        target.put("bootstrap.servers", "127.0.0.1:1");
        return MergeConfig.builder().name("m").targetProperties(target).outputTopic("out")
                .input(new MergeInput("west", Map.of("bootstrap.servers", "127.0.0.1:1"), "w"))
                .input(new MergeInput("east", Map.of("bootstrap.servers", "127.0.0.1:1"), "e"));
    }
}
