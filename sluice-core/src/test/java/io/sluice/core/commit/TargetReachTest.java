package io.sluice.core.commit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.DoubleSupplier;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.junit.jupiter.api.Test;

/** The target's silence counts only while records wait, from the producers' own counts; pure logic, no cluster. */
class TargetReachTest {

    private static final Duration GRACE = Duration.ofSeconds(15);
    private static final long SECOND = 1_000_000_000L;

    /** A producer's metrics as the watch reads them: responses received, and its buffer's free and total bytes. */
    private static final class ProducerMetrics {
        final Map<MetricName, Metric> view = new HashMap<>();
        double responses;
        double availableBytes = 32 << 20;

        ProducerMetrics() {
            add("response-total", () -> responses);
            add("buffer-available-bytes", () -> availableBytes);
            add("buffer-total-bytes", () -> (double) (32 << 20));
            // the same name per broker, in another group: never read as the producer's own
            view.put(new MetricName("response-total", "producer-node-metrics", "", Map.of("node-id", "node-1")),
                    metric(() -> 0.0));
        }

        private void add(String name, DoubleSupplier value) {
            MetricName metricName = new MetricName(name, "producer-metrics", "", Map.of("client-id", "p"));
            view.put(metricName, metric(value));
        }

        private static Metric metric(DoubleSupplier value) {
            return LiveMetric.of(value);
        }

        void holdRecords() {
            availableBytes = (32 << 20) - 4096;
        }

        void allAcknowledged() {
            availableBytes = 32 << 20;
        }
    }

    private final List<ProducerMetrics> producers = new ArrayList<>();
    private boolean sending;
    /** As a producer's {@code metrics()}: a new view at every call, of the same metrics. */
    private final TargetReach reach = new TargetReach("target:9092",
            () -> producers.stream().map(p -> Collections.unmodifiableMap(p.view)).toList(), () -> sending, GRACE);

    /** Looks every second from {@code from} to {@code to} (seconds), as a progress line does; the last look's answer. */
    private Optional<Duration> looks(long from, long to) {
        Optional<Duration> last = Optional.empty();
        for (long s = from; s <= to; s++) {
            last = reach.unreachableFor(s * SECOND);
        }
        return last;
    }

    @Test
    void recordsThatWaitWithNoResponseForTheGracePeriodMakeTheTargetUnreachable() {
        ProducerMetrics p = new ProducerMetrics();
        producers.add(p);
        looks(1, 1);
        p.holdRecords();
        assertEquals(Optional.empty(), looks(2, 15), "not before the grace period");
        assertEquals(Optional.of(Duration.ofSeconds(15)), looks(16, 16));
        assertEquals(Optional.of(Duration.ofSeconds(20)), looks(17, 21), "counted from the last answer");
        p.responses++;
        assertEquals(Optional.empty(), looks(22, 22), "a response: it answers again");
        assertEquals(Optional.empty(), looks(23, 36), "and the count starts again");
        assertTrue(looks(37, 37).isPresent());
    }

    @Test
    void theGraceIsTheProducersRequestTimeoutWhenThatIsShorterButAtLeastThreeSeconds() {
        assertEquals(Duration.ofSeconds(15), TargetReach.grace(Map.of()), "unset: the producers' 30 s default");
        assertEquals(Duration.ofSeconds(15), TargetReach.grace(Map.of("request.timeout.ms", "30000")));
        assertEquals(Duration.ofSeconds(3), TargetReach.grace(Map.of("request.timeout.ms", " 3000 ")), "as YAML");
        assertEquals(Duration.ofMillis(4500), TargetReach.grace(Map.of("request.timeout.ms", 4500)), "as code");
        assertEquals(Duration.ofSeconds(3), TargetReach.grace(Map.of("request.timeout.ms", "1000")),
                "room for the question who serves the writes");
        assertEquals(Duration.ofSeconds(15), TargetReach.grace(Map.of("request.timeout.ms", "soon")),
                "the producer refuses it, in its own words, before anything waits");
    }

    @Test
    void aSendThatWaitsForTheTargetsMetadataWaitsLikeBufferedRecords() {
        ProducerMetrics p = new ProducerMetrics();
        producers.add(p);
        looks(1, 1);
        sending = true; // in send(), waiting for metadata: the producer's buffer is all free
        assertTrue(looks(2, 16).isPresent());
        sending = false; // the send gave up (max.block.ms): nothing waits any more
        assertEquals(Optional.empty(), looks(17, 17));
    }

    @Test
    void aSilentTargetWithNothingToSendIsNotUnreachable() {
        ProducerMetrics p = new ProducerMetrics();
        producers.add(p);
        assertEquals(Optional.empty(), looks(1, 60), "an idle producer hears nothing, and owes nothing");
        p.holdRecords();
        looks(61, 70);
        p.allAcknowledged(); // acknowledged: an answer came, even if the count was read before it moved
        assertEquals(Optional.empty(), looks(71, 100));
    }

    @Test
    void anyProducerThatHearsFromTheTargetShowsItAnswers() {
        ProducerMetrics waiting = new ProducerMetrics();
        ProducerMetrics answered = new ProducerMetrics();
        producers.add(waiting);
        producers.add(answered);
        looks(1, 1);
        waiting.holdRecords();
        for (long s = 2; s <= 40; s++) {
            answered.responses++;
            assertEquals(Optional.empty(), reach.unreachableFor(s * SECOND), "at " + s + " s");
        }
    }

    @Test
    void aProducerAddedOrClosedIsNotTakenForAnAnswer() {
        ProducerMetrics first = new ProducerMetrics();
        producers.add(first);
        looks(1, 1);
        first.holdRecords();
        looks(2, 10);
        ProducerMetrics added = new ProducerMetrics();
        added.responses = 7; // its count so far: no answer since the last look
        producers.add(added);
        looks(11, 12);
        producers.remove(added);
        assertTrue(looks(13, 16).isPresent(), "still silent since 1 s");
    }

    @Test
    void aLookAfterThisProcessDidNotRunStartsTheCountAgain() {
        ProducerMetrics p = new ProducerMetrics();
        producers.add(p);
        looks(1, 1);
        p.holdRecords();
        looks(2, 10);
        // SIGSTOP for a minute: the cluster is not to blame for it
        assertEquals(Optional.empty(), looks(70, 84));
        assertTrue(looks(85, 85).isPresent());
    }
}
