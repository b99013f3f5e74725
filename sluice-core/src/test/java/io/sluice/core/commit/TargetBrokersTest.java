package io.sluice.core.commit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.junit.jupiter.api.Test;

/**
 * Which target broker owes the producers an answer while the cluster answers, from the producers' per-broker counts
 * and the cluster's answers to a probe; pure logic, no cluster.
 */
class TargetBrokersTest {

    static final long SECOND = 1_000_000_000L;
    private static final Duration GRACE = Duration.ofSeconds(15);

    /** A producer's per-broker counts, as its {@code producer-node-metrics} show them. */
    static final class Producer {
        private final Map<MetricName, Metric> metrics = new HashMap<>();
        private final Map<Integer, double[]> counts = new HashMap<>();

        Producer(int... brokers) {
            for (int broker : brokers) {
                double[] c = new double[2];
                counts.put(broker, c);
                metrics.put(name("request-total", "node-" + broker), metric(() -> c[0]));
                metrics.put(name("response-total", "node-" + broker), metric(() -> c[1]));
            }
            // a bootstrap connection and a producer-wide count: neither is a broker's
            metrics.put(name("request-total", "node--1"), metric(() -> 3.0));
            metrics.put(new MetricName("response-total", "producer-metrics", "", Map.of("client-id", "p")),
                    metric(() -> 9.0));
            // records held, waiting to be acknowledged
            metrics.put(new MetricName("buffer-available-bytes", "producer-metrics", "", Map.of("client-id", "p")),
                    metric(() -> 1000.0));
            metrics.put(new MetricName("buffer-total-bytes", "producer-metrics", "", Map.of("client-id", "p")),
                    metric(() -> 4096.0));
        }

        void asks(int broker) {
            counts.get(broker)[0]++;
        }

        void answered(int broker) {
            counts.get(broker)[0]++;
            counts.get(broker)[1]++;
        }

        /** As {@code Producer#metrics()}: a new view at every call, of the same metrics. */
        Map<MetricName, Metric> view() {
            return Map.copyOf(metrics);
        }

        private static MetricName name(String name, String node) {
            return new MetricName(name, "producer-node-metrics", "", Map.of("client-id", "p", "node-id", node));
        }

        private static Metric metric(Supplier<Double> value) {
            return new Metric() {
                @Override
                public MetricName metricName() {
                    return null;
                }

                @Override
                public Object metricValue() {
                    return value.get();
                }
            };
        }
    }

    /** The cluster's side: answers each question at once with {@link #answer}, or fails it when that is null. */
    static final class Cluster implements TargetBrokers.Probe {
        TargetBrokers.Answer answer = new TargetBrokers.Answer(Map.of(1, "h:1", 2, "h:2"),
                Map.of(1, List.of("leads the partitions [t-1] written here"),
                        2, List.of("leads the partitions [t-0] written here")));
        final List<Long> asked = new ArrayList<>();
        long now;

        @Override
        public CompletableFuture<TargetBrokers.Answer> ask(Duration timeout) {
            asked.add(now);
            return answer == null ? CompletableFuture.failedFuture(new IllegalStateException("timed out"))
                    : CompletableFuture.completedFuture(answer);
        }
    }

    private final Producer producer = new Producer(1, 2);
    private final Cluster cluster = new Cluster();
    private final TargetBrokers brokers = new TargetBrokers("target broker", GRACE, cluster);

    /** Whether the producer waits for the cluster (holds records, or a commit waits). */
    private boolean waiting = true;

    /** Looks at second {@code s}, after {@code before} ran; returns whether the cluster answered a question. */
    private boolean look(long s, Runnable before) {
        before.run();
        cluster.now = s;
        return brokers.look(s * SECOND, List.of(new TargetBrokers.Producer(producer.view(), waiting)));
    }

    private Map<Integer, Duration> silent(long s) {
        return brokers.silent(s * SECOND);
    }

    @Test
    void aBrokerThatOwesAnAnswerWhileTheClusterAnswersIsSaidAfterTheGrace() {
        look(1, () -> { });
        look(2, () -> producer.asks(2)); // broker 2 owes from here: from the last look at which it owed nothing
        boolean answered = false;
        for (long s = 3; s <= 15; s++) {
            answered |= look(s, () -> producer.answered(1));
            assertEquals(Map.of(), silent(s), "not before the grace, at " + s + " s");
        }
        assertTrue(answered, "the cluster was asked and answered");
        assertEquals(6L, cluster.asked.get(0), "asked once broker 2 had owed for 5 s");
        look(16, () -> { });
        assertEquals(Map.of(2, Duration.ofSeconds(15)), silent(16));
        for (long s = 17; s <= 21; s++) {
            look(s, () -> producer.answered(1));
        }
        assertEquals(Map.of(2, Duration.ofSeconds(20)), silent(21), "counted from the last look it owed nothing");
        look(22, () -> producer.answered(2));
        assertEquals(Map.of(), silent(22), "it answers again");
    }

    @Test
    void aClusterThatDoesNotAnswerTheQuestionHasNoBrokerSaid() {
        cluster.answer = null; // the whole cluster is silent: its own watch says so
        look(1, () -> { });
        look(2, () -> producer.asks(2));
        for (long s = 3; s <= 60; s++) {
            assertFalse(look(s, () -> { }), "no answer at " + s + " s");
        }
        assertEquals(Map.of(), silent(60));
        assertTrue(cluster.asked.size() >= 10, "asked every 5 s: " + cluster.asked);
    }

    @Test
    void aBrokerThatDoesNothingForThisRunIsNeitherSaidNorAskedAbout() {
        // the producer's last request to broker 2 went unanswered, then its partitions moved to broker 1
        cluster.answer = new TargetBrokers.Answer(Map.of(1, "h:1", 2, "h:2"),
                Map.of(1, List.of("leads the partitions [t-0, t-1] written here")));
        look(1, () -> { });
        look(2, () -> producer.asks(2));
        for (long s = 3; s <= 120; s++) {
            look(s, () -> producer.answered(1));
        }
        assertEquals(Map.of(), silent(120));
        assertEquals(List.of(6L, 36L, 66L, 96L), cluster.asked, "excused: asked about every 30 s, not every 5");
    }

    @Test
    void anExcusedBrokerThatTheRunNeedsAgainIsSaid() {
        cluster.answer = new TargetBrokers.Answer(Map.of(1, "h:1", 2, "h:2"), Map.of(1, List.of("leads [t-0, t-1]")));
        look(1, () -> { });
        look(2, () -> producer.asks(2));
        for (long s = 3; s <= 20; s++) {
            look(s, () -> producer.answered(1));
        }
        assertEquals(Map.of(), silent(20), "excused");
        // partition t-0's leadership comes back to broker 2 (a preferred leader election): the copy into it waits
        cluster.answer = new TargetBrokers.Answer(Map.of(1, "h:1", 2, "h:2"),
                Map.of(1, List.of("leads [t-1]"), 2, List.of("leads [t-0]")));
        for (long s = 21; s <= 38; s++) {
            look(s, () -> producer.answered(1));
        }
        assertEquals(Map.of(2, Duration.ofSeconds(37)), silent(38), "asked again at 36 s, needed: said");
    }

    @Test
    void aBrokerThatStopsAnsweringWithItsRequestsInFlightOwesThoughNoCountMoves() {
        // a busy producer: every second five requests out and five answers back, so every look sees both counts move
        look(1, () -> { });
        for (long s = 2; s <= 10; s++) {
            look(s, () -> {
                for (int i = 0; i < 5; i++) {
                    producer.asks(2);
                }
                for (int i = 0; i < 5; i++) {
                    producer.answered(2); // counts one more request each: settle them
                }
            });
        }
        // five more in flight just before the look at 11 s, answered at once before: then broker 2 stops answering;
        // the client can send no sixth, so from here neither count moves
        look(11, () -> {
            for (int i = 0; i < 5; i++) {
                producer.answered(2);
                producer.asks(2);
            }
        });
        for (long s = 12; s <= 25; s++) {
            look(s, () -> producer.answered(1));
        }
        assertEquals(Map.of(), silent(25), "not before the grace");
        look(26, () -> producer.answered(1));
        assertEquals(Map.of(2, Duration.ofSeconds(15)), silent(26), "waited for since its last answer, at 11 s");
    }

    @Test
    void requestsLostWithADroppedConnectionAreNotWaitedForOnceTheBrokerAnswersAgain() {
        look(1, () -> { });
        look(2, () -> {
            producer.asks(2);
            producer.asks(2);
            producer.asks(2);
        });
        for (long s = 3; s <= 16; s++) {
            look(s, () -> producer.answered(1));
        }
        assertEquals(Map.of(2, Duration.ofSeconds(15)), silent(16));
        // the client gave the three up and connected again: a new request, answered; the three never will be
        look(17, () -> producer.answered(2));
        assertEquals(Map.of(), silent(17), "it answers again");
        for (long s = 18; s <= 80; s++) {
            look(s, () -> producer.answered(1)); // the producer still holds records, for broker 1
        }
        assertEquals(Map.of(), silent(80), "the lost requests are not a new wait");
    }

    @Test
    void aBrokerThatAnswersAnotherProducerDoesNotOwe() {
        Producer other = new Producer(1, 2);
        look(1, () -> { });
        look(2, () -> producer.asks(2)); // lost in a dropped connection: never answered
        for (long s = 3; s <= 60; s++) {
            other.answered(2); // broker 2 answers the other producer every second
            cluster.now = s;
            brokers.look(s * SECOND, List.of(new TargetBrokers.Producer(producer.view(), true),
                    new TargetBrokers.Producer(other.view(), true)));
        }
        assertEquals(Map.of(), silent(60));
        assertEquals(List.of(), cluster.asked, "nothing owed for 5 s: nothing asked");
    }

    @Test
    void aProducerThatDoesNotWaitOwesNothing() {
        waiting = false; // a request lost to a dropped connection, and nothing held since
        look(1, () -> { });
        look(2, () -> producer.asks(2));
        for (long s = 3; s <= 60; s++) {
            look(s, () -> producer.answered(1));
        }
        assertEquals(Map.of(), silent(60));
        assertEquals(List.of(), cluster.asked);
    }

    @Test
    void aBrokerSaidIsNoLongerSaidOnceTheClusterSaysItDoesNothingForThisRun() {
        look(1, () -> { });
        look(2, () -> producer.asks(2));
        for (long s = 3; s <= 16; s++) {
            look(s, () -> { });
        }
        assertEquals(Map.of(2, Duration.ofSeconds(15)), silent(16));
        // its partitions moved to broker 1, and the cluster's next answer says so
        cluster.answer = new TargetBrokers.Answer(Map.of(1, "h:1"), Map.of(1, List.of("leads [t-0, t-1]")));
        for (long s = 17; s <= 60; s++) {
            look(s, () -> producer.answered(1));
        }
        assertEquals(Map.of(), silent(60), "no longer needed: no longer said");
        assertEquals(List.of(6L, 11L, 16L, 21L, 51L), cluster.asked, "excused: asked about every 30 s, not every 5");
    }

    @Test
    void aBrokerOwingOnlySinceAQuestionWasAnsweredWaitsForANewerAnswer() {
        look(1, () -> { });
        look(2, () -> producer.asks(1)); // broker 1 owes briefly: the cluster is asked at 6 s
        for (long s = 3; s <= 7; s++) {
            look(s, () -> { });
        }
        look(8, () -> producer.answered(1));
        assertEquals(List.of(6L), cluster.asked);
        cluster.answer = null; // from here the cluster answers no question
        look(9, () -> producer.asks(2));
        for (long s = 10; s <= 40; s++) {
            look(s, () -> { });
        }
        assertEquals(Map.of(), silent(40), "the only answer came before broker 2 owed: nothing says the rest answers");
    }

    @Test
    void theTargetsWatchDoesNotCallTheClusterSilentWhenOneBrokerOwesWhileTheClusterAnswers() {
        // every producer waits on broker 2 (its partitions, or the coordinator every commit writes to): no producer
        // hears from any broker, yet the cluster answers
        TargetReach watched = new TargetReach("t:9092", () -> List.of(producer.view()), () -> false, GRACE,
                new TargetBrokers("target broker", GRACE, cluster));
        TargetReach unwatched = new TargetReach("t:9092", () -> List.of(producer.view()), () -> false, GRACE);
        for (long s = 1; s <= 60; s++) {
            if (s == 2) {
                producer.asks(2);
            }
            cluster.now = s;
            assertEquals(java.util.Optional.empty(), watched.unreachableFor(s * SECOND), "at " + s + " s");
            unwatched.unreachableFor(s * SECOND);
        }
        assertEquals(Map.of(2, Duration.ofSeconds(60)), watched.brokersUnanswered(61 * SECOND));
        assertTrue(unwatched.unreachableFor(61 * SECOND).isPresent(), "without the question, the cluster seems silent");
    }

    @Test
    void aLookAfterThisProcessDidNotRunStartsTheCountAgain() {
        look(1, () -> { });
        look(2, () -> producer.asks(2));
        for (long s = 3; s <= 10; s++) {
            look(s, () -> producer.answered(1));
        }
        // SIGSTOP for half a minute: broker 2 is not to blame for it
        for (long s = 40; s <= 54; s++) {
            look(s, () -> producer.answered(1));
        }
        assertEquals(Map.of(), silent(54));
        look(55, () -> { });
        assertEquals(Map.of(2, Duration.ofSeconds(15)), silent(55));
    }
}
