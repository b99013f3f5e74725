package io.sluice.core.internal.consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.junit.jupiter.api.Test;

/** The source counts as unreachable only after no connection for the grace period, and as soon as one opens again. */
class SourceReachTest {

    private static final long SECOND = 1_000_000_000L;

    /** The consumer's connection count as the clients' metrics give it: a Double that changes under the reader. */
    private static final class Connections implements Metric {
        double open = 1;

        @Override
        public MetricName metricName() {
            return new MetricName("connection-count", "consumer-metrics", "", Map.of());
        }

        @Override
        public Object metricValue() {
            return open;
        }
    }

    private final Connections connections = new Connections();
    private final SourceReach reach = new SourceReach(Map.of(connections.metricName(), connections), "127.0.0.1:9092",
            Duration.ofSeconds(5));

    @Test
    void aBlipShorterThanTheGraceIsNotAnOutage() {
        reach.observe(10 * SECOND);
        connections.open = 0;
        reach.observe(11 * SECOND);
        reach.observe(15 * SECOND);
        assertEquals(Optional.empty(), reach.unreachableFor(15 * SECOND));
        connections.open = 2;
        reach.observe(16 * SECOND);
        assertEquals(Optional.empty(), reach.unreachableFor(30 * SECOND), "the next outage counts from its own start");
    }

    @Test
    void noConnectionForTheGraceIsAnOutageCountedFromItsStartUntilOneOpens() {
        connections.open = 0;
        reach.observe(100 * SECOND);
        reach.observe(106 * SECOND);
        assertEquals(Optional.of(Duration.ofSeconds(7)), reach.unreachableFor(107 * SECOND));
        reach.observe(130 * SECOND);
        assertEquals(Optional.of(Duration.ofSeconds(31)), reach.unreachableFor(131 * SECOND));
        connections.open = 1;
        reach.observe(132 * SECOND);
        assertEquals(Optional.empty(), reach.unreachableFor(140 * SECOND));
    }

    @Test
    void aConsumerWithoutTheMetricCountsAsReachable() {
        SourceReach blind = new SourceReach(Map.of(), "127.0.0.1:9092", Duration.ofSeconds(5));
        blind.observe(SECOND);
        blind.observe(60 * SECOND);
        assertTrue(blind.unreachableFor(60 * SECOND).isEmpty());
    }
}
