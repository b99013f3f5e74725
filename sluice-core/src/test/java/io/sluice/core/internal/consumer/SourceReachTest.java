package io.sluice.core.internal.consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.junit.jupiter.api.Test;

/**
 * The source counts as unreachable only once no response has come for the grace period, from its last response on,
 * until one comes; never before the consumer's first poll nor after it closes.
 */
class SourceReachTest {

    private static final long SECOND = 1_000_000_000L;

    /** The consumer's responses received, as the clients' metrics give it: a Double that grows under the reader. */
    private static final class Responses implements Metric {
        double total;

        @Override
        public MetricName metricName() {
            return new MetricName("response-total", "consumer-metrics", "", Map.of("client-id", "sluice-a"));
        }

        @Override
        public Object metricValue() {
            return total;
        }
    }

    private final Responses responses = new Responses();
    private boolean joining;
    /** Looks far apart in these tests are the test's steps, not a stalled process: no stall that short. */
    private final SourceReach reach = new SourceReach(Map.of(responses.metricName(), responses), "127.0.0.1:9092",
            Duration.ofSeconds(15), Duration.ofHours(1), () -> joining);

    @Test
    void aPauseShorterThanTheGraceIsNotAnOutage() {
        reach.polled(10 * SECOND);
        responses.total = 4;
        reach.observe(11 * SECOND);
        reach.observe(25 * SECOND);
        assertEquals(Optional.empty(), reach.unreachableFor(25 * SECOND), "14 s since the last answer");
        responses.total = 5;
        assertEquals(Optional.empty(), reach.unreachableFor(40 * SECOND), "an answer came: the count starts again");
    }

    @Test
    void noAnswerForTheGraceIsAnOutageCountedFromTheLastAnswerUntilOneComes() {
        reach.polled(100 * SECOND);
        responses.total = 7;
        reach.observe(101 * SECOND);
        assertEquals(Optional.of(Duration.ofSeconds(15)), reach.unreachableFor(116 * SECOND));
        assertEquals(Optional.of(Duration.ofSeconds(40)), reach.unreachableFor(141 * SECOND));
        responses.total = 8;
        assertEquals(Optional.empty(), reach.unreachableFor(142 * SECOND));
    }

    @Test
    void beforeTheFirstPollAndAfterCloseNothingIsExpected() {
        assertEquals(Optional.empty(), reach.unreachableFor(60 * SECOND), "a slow start is not an outage");
        reach.polled(60 * SECOND);
        reach.closing();
        assertEquals(Optional.empty(), reach.unreachableFor(600 * SECOND), "a closed consumer hears from nobody");
    }

    @Test
    void aConsumerWithoutTheMetricCountsAsAnswered() {
        SourceReach blind = new SourceReach(Map.of(), "127.0.0.1:9092", Duration.ofSeconds(15), () -> false);
        blind.polled(SECOND);
        blind.observe(2 * SECOND);
        assertTrue(blind.unreachableFor(600 * SECOND).isEmpty());
    }

    /**
     * A restart right after a kill: the cluster answers (metadata, the coordinator's address), then holds the join
     * until the killed member's session expires. That is a held join, not a cluster that does not answer.
     */
    @Test
    void aJoinTheCoordinatorHoldsIsNoOutage() {
        joining = true;
        reach.polled(10 * SECOND);
        responses.total = 3; // the first answers
        reach.observe(11 * SECOND);
        assertEquals(Optional.empty(), reach.unreachableFor(50 * SECOND), "39 s of a held join");
        joining = false;
        responses.total = 4; // the join's answer
        assertEquals(Optional.empty(), reach.unreachableFor(52 * SECOND));
        assertEquals(Optional.of(Duration.ofSeconds(20)), reach.unreachableFor(72 * SECOND),
                "a member that hears nothing is cut off, however it joined");
    }

    /**
     * The same when every answer before the held join came during the first poll (metadata and the coordinator's
     * address within its 50 ms): a restart after a second Ctrl-C logged "no answer from the source cluster" for the
     * 45 s the coordinator held its join, the source up all along (a helper's run).
     */
    @Test
    void aJoinHeldRightAfterTheFirstPollsAnswersIsNoOutage() {
        joining = true;
        responses.total = 3; // answered within the first poll
        reach.polled(10 * SECOND);
        reach.observe(11 * SECOND);
        assertEquals(Optional.empty(), reach.unreachableFor(50 * SECOND), "40 s of a held join");
    }

    /** A cluster that never answered since the start is not a held join, whatever the consumer waits for. */
    @Test
    void aClusterThatNeverAnsweredIsAnOutageEvenBeforeTheFirstAssignment() {
        joining = true;
        reach.polled(10 * SECOND);
        reach.observe(11 * SECOND);
        assertEquals(Optional.of(Duration.ofSeconds(20)), reach.unreachableFor(30 * SECOND));
    }

    /** A process stopped (SIGSTOP) and continued did not hear the cluster because it did not run. */
    @Test
    void aProcessThatDidNotRunDoesNotBlameTheCluster() {
        SourceReach looked = new SourceReach(Map.of(responses.metricName(), responses), "127.0.0.1:9092",
                Duration.ofSeconds(15), Duration.ofSeconds(5), () -> false);
        looked.polled(10 * SECOND);
        responses.total = 2;
        looked.observe(11 * SECOND);
        looked.observe(12 * SECOND);
        assertEquals(Optional.empty(), looked.unreachableFor(100 * SECOND), "88 s frozen, then a look");
        for (long s = 101; s <= 114; s++) {
            looked.observe(s * SECOND); // looked at as often as a running process does, and silent
        }
        assertEquals(Optional.of(Duration.ofSeconds(15)), looked.unreachableFor(115 * SECOND),
                "counted from the thaw, not from before the freeze");
    }
}
