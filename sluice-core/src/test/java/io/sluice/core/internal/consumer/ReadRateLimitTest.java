package io.sluice.core.internal.consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.junit.jupiter.api.Test;

class ReadRateLimitTest {

    private static final long SECOND = 1_000_000_000L;

    @Test
    void aPollIntoDebtPausesUntilTheRateHasPaidItBack() {
        ReadRateLimit limit = new ReadRateLimit(1_000_000, 0);
        assertFalse(limit.inDebt(0));
        limit.charge(500_000, 0);
        assertTrue(limit.inDebt(SECOND / 2 - 1));
        assertFalse(limit.inDebt(SECOND / 2));
    }

    @Test
    void idleTimeSavesAtMostATenthOfASecondsWorth() {
        ReadRateLimit limit = new ReadRateLimit(1_000_000, 0);
        limit.charge(0, 60 * SECOND); // a minute idle
        limit.charge(100_000, 60 * SECOND);
        assertFalse(limit.inDebt(60 * SECOND), "the bucket holds a tenth of a second");
        limit.charge(1, 60 * SECOND);
        assertTrue(limit.inDebt(60 * SECOND), "and no more");
    }

    @Test
    void fetchSizesShrinkToFractionsOfASecondsWorthButNeverGrow() {
        Map<String, Object> props = new HashMap<>();
        props.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 1_048_576);
        props.put(ConsumerConfig.FETCH_MAX_BYTES_CONFIG, "4096");
        ReadRateLimit.capFetchSizes(props, 1_600_000);
        assertEquals(100_000, props.get(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG));
        assertEquals("4096", props.get(ConsumerConfig.FETCH_MAX_BYTES_CONFIG), "already below a quarter second");
        ReadRateLimit.capFetchSizes(props, 2048);
        assertEquals(1024, props.get(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG), "at least 1 KiB");
    }
}
