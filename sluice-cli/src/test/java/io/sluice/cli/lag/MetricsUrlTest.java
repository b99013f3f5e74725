package io.sluice.cli.lag;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URI;
import org.junit.jupiter.api.Test;

/**
 * {@code lag --metrics-url} with the address a run prints for its status page ("status page at http://…/, metrics at
 * /metrics") reads the metrics there: given as such, the status page was read as metrics, and the rate said to come
 * from the committed offsets for want of the counter (a new user's run).
 */
class MetricsUrlTest {

    @Test
    void anInstancesAddressMeansItsMetrics() {
        assertEquals(URI.create("http://127.0.0.1:9478/metrics"), LagReader.metricsAt(URI.create("http://127.0.0.1:9478/")));
        assertEquals(URI.create("http://127.0.0.1:9478/metrics"), LagReader.metricsAt(URI.create("http://127.0.0.1:9478")));
        assertEquals(URI.create("http://h:1/metrics"), LagReader.metricsAt(URI.create("http://h:1/metrics")));
        assertEquals(URI.create("http://h:1/custom/prom"), LagReader.metricsAt(URI.create("http://h:1/custom/prom")));
    }
}
