package io.sluice.core.commit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.internals.AutoOffsetResetStrategy;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * When a broker is said to be silent, from its response counts at looks twice a second: pure logic, no cluster (the
 * consumer's metadata and per-broker counts are a stand-in's; {@code SourceBrokerSilenceTest} has the real ones).
 */
class BrokerWatchTest {

    private static final Duration GRACE = Duration.ofSeconds(15);
    private static final long MILLI = 1_000_000L;
    private static final Node ONE = new Node(1, "b1", 9092);
    private static final Node TWO = new Node(2, "b2", 9092);
    private static final TopicPartition P0 = new TopicPartition("t", 0);
    private static final TopicPartition P1 = new TopicPartition("t", 1);

    /** A consumer whose metadata puts P0 on broker 1 and P1 on broker 2, and whose response counts the test sets. */
    private static final class Cluster extends MockConsumer<byte[], byte[]> {
        final Map<Integer, Double> responses = new HashMap<>();
        final Map<MetricName, Metric> metrics = new HashMap<>();

        Cluster() {
            super(AutoOffsetResetStrategy.EARLIEST.name());
            updatePartitions("t", List.of(new PartitionInfo("t", 0, ONE, new Node[] {ONE}, new Node[] {ONE}),
                    new PartitionInfo("t", 1, TWO, new Node[] {TWO}, new Node[] {TWO})));
            for (int id : new int[] {1, 2, Integer.MAX_VALUE - 1, Integer.MAX_VALUE - 2}) {
                responses.put(id, 0.0);
                metrics.put(new MetricName("response-total", "consumer-node-metrics", "",
                        Map.of("client-id", "c", "node-id", "node-" + id)), LiveMetric.of(() -> responses.get(id)));
            }
        }

        void answer(int broker) {
            responses.merge(broker, 1.0, Double::sum);
        }

        @Override
        public synchronized Map<MetricName, ? extends Metric> metrics() {
            return metrics;
        }
    }

    /** What the watch said, in order. */
    private static final class Said implements BrokerWatch.Words {
        final List<String> lines = new ArrayList<>();

        @Override
        public void silent(Node broker, Set<TopicPartition> partitions, long seconds) {
            lines.add("silent " + broker.id() + " " + partitions + " " + seconds);
        }

        @Override
        public void answersAgain(Node broker, long seconds) {
            lines.add("again " + broker.id() + " " + seconds);
        }

        @Override
        public void noLongerRead(Node broker, long seconds) {
            lines.add("unwatched " + broker.id() + " " + seconds);
        }
    }

    private final Cluster cluster = new Cluster();
    private final Said said = new Said();
    private final BrokerWatch watch = new BrokerWatch(cluster, GRACE, false, said);
    private long now = 1_000 * MILLI;

    /** Looks every 500 ms for {@code millis}, broker 2 answering every {@code answerEvery} ms (0: never). */
    private void run(long millis, long answerEvery, Set<TopicPartition> fetching) {
        long nextAnswer = now + answerEvery * MILLI;
        long until = now + millis * MILLI;
        while (now < until) {
            now += 500 * MILLI;
            while (answerEvery > 0 && nextAnswer <= now) {
                cluster.answer(2);
                nextAnswer += answerEvery * MILLI;
            }
            watch.look(now, () -> fetching);
        }
    }

    @Test
    void aBrokerSilentForTheGraceWhileAnotherAnswersIsSaidOnceWithItsPartitions() {
        run(14_000, 600, Set.of(P0, P1));
        assertEquals(List.of(), said.lines, "not before the grace");
        // another broker at its partitions' end answers a little slower than the looks come: some looks see nothing
        // from it, which must not make the silence the cluster's
        run(2_000, 600, Set.of(P0, P1));
        assertEquals(List.of("silent 1 [t-0] 15"), said.lines);
        assertEquals(Set.of(1), watch.silentBrokers().keySet());
        assertEquals(Map.of(P0, 1), watch.partitionsOfSilentBrokers());

        run(10_000, 600, Set.of(P0, P1));
        assertEquals(1, said.lines.size(), "said once");
        cluster.answer(1);
        run(500, 600, Set.of(P0, P1));
        assertEquals("again 1 26", said.lines.get(1));
        assertEquals(Map.of(), watch.silentBrokers());
    }

    @Test
    void noBrokerHeardFromIsTheClustersSilenceNotOneBrokers() {
        run(30_000, 0, Set.of(P0, P1));
        assertEquals(List.of(), said.lines);
        assertEquals(Map.of(), watch.silentBrokers());
    }

    @Test
    void aBrokerWhosePartitionsArePausedOwesNothingAndIsNotSaidWhenReadAgain() {
        run(5_000, 500, Set.of(P0, P1));
        run(60_000, 500, Set.of(P1)); // P0 paused for a minute: broker 1 is asked nothing
        run(5_000, 500, Set.of(P0, P1));
        assertEquals(List.of(), said.lines, "it owes from when it is read again");
        run(11_000, 500, Set.of(P0, P1));
        assertEquals(List.of("silent 1 [t-0] 15"), said.lines);
    }

    @Test
    void shortPausesDoNotHideASilence() {
        // a read-rate limit pauses every partition now and then: the count goes on through short pauses
        for (int i = 0; i < 10; i++) {
            run(1_500, 500, Set.of(P0, P1));
            run(1_000, 500, Set.of(P1));
        }
        assertTrue(said.lines.contains("silent 1 [t-0] 15"), said.lines.toString());
    }

    @Test
    void aSilenceSaidOfABrokerNoLongerReadFromIsSaidToBeOverNotDropped() {
        run(16_000, 500, Set.of(P0, P1));
        assertEquals(List.of("silent 1 [t-0] 15"), said.lines);
        run(3_000, 500, Set.of(P1)); // paused: still said, still not heard from
        assertEquals(Set.of(1), watch.silentBrokers().keySet());
        run(15_000, 500, Set.of(P1)); // revoked: nothing read from it for the grace
        assertEquals("unwatched 1 16", said.lines.get(1), "16.5 s without an answer when the reading stopped");
        assertEquals(Map.of(), watch.silentBrokers());
    }

    @Test
    void aGapBetweenLooksWasThisProcessNotRunningAndTheCountStartsAgain() {
        run(10_000, 500, Set.of(P0, P1));
        now += 60_000 * MILLI; // frozen for a minute (SIGSTOP): no look, no answer read
        run(10_000, 500, Set.of(P0, P1));
        assertEquals(List.of(), said.lines, "20 s of silence, but a minute of it this process was not running");
        run(6_000, 500, Set.of(P0, P1));
        assertEquals(1, said.lines.size(), said.lines.toString());
    }

    /**
     * Every partition read here is on the broker that stopped answering: no other broker is fetched from, but the
     * group's coordinator (another broker, its connection named by its alias id) answers heartbeats, so the cluster
     * answers and the broker is said. Its own alias answering would not count.
     */
    @Test
    void theCoordinatorsHeartbeatsAreTheClusterAnsweringWhenNoOtherBrokerIsReadFrom() {
        Set<TopicPartition> onlyOne = Set.of(P0);
        for (int i = 0; i < 10; i++) {
            cluster.answer(Integer.MAX_VALUE - 1); // broker 1's own coordinator alias: not another broker
            run(3_000, 0, onlyOne);
        }
        assertEquals(List.of(), said.lines);
        for (int i = 0; i < 6; i++) {
            cluster.answer(Integer.MAX_VALUE - 2); // broker 2, the coordinator, answers a heartbeat every 3 s
            run(3_000, 0, onlyOne);
        }
        // silent all along: said at the first look after another answer, with the whole silence
        assertEquals(List.of("silent 1 [t-0] 30"), said.lines);
    }

    /**
     * A merge pauses a partition whose buffer is full for a few seconds; the broker it is read from is asked nothing
     * meanwhile, and answers a fetch wait after it is read again. With the merge's shortest grace (3 s), counting the
     * pause as silence said a healthy broker silent at the first look after the pause.
     */
    @Test
    void aPauseOwesNothingAndAHealthyBrokerResumedIsNotSaid() {
        BrokerWatch quick = new BrokerWatch(cluster, Duration.ofSeconds(3), false, said);
        for (int i = 0; i < 8; i++) { // both answer at every look
            now += 500 * MILLI;
            cluster.answer(1);
            cluster.answer(2);
            quick.look(now, () -> Set.of(P0, P1));
        }
        for (int i = 0; i < 7; i++) { // broker 1's partition paused for 3.5 s: it is asked nothing
            now += 500 * MILLI;
            cluster.answer(2);
            quick.look(now, () -> Set.of(P1));
        }
        for (int i = 0; i < 4; i++) { // read again: its answer comes a look later
            now += 500 * MILLI;
            cluster.answer(2);
            if (i > 0) {
                cluster.answer(1);
            }
            quick.look(now, () -> Set.of(P0, P1));
        }
        assertEquals(List.of(), said.lines);
    }

    /**
     * The consumer asks a broker nothing for a partition whose fetched records it still holds: while its position there
     * moves, the broker owes no answer; once it stops moving and no answer comes, it does.
     */
    @Test
    void aBrokerWhoseRecordsAreStillHandedOnOwesNothing() {
        cluster.assign(List.of(P0, P1));
        long position = 0;
        for (int i = 0; i < 60; i++) { // 30 s of a slow reader working through one large fetch of broker 1's
            now += 500 * MILLI;
            cluster.seek(P0, position += 100);
            cluster.answer(2);
            watch.look(now, () -> Set.of(P0, P1));
        }
        assertEquals(List.of(), said.lines);
        run(16_000, 500, Set.of(P0, P1)); // handed on; now a fetch is owed, and none is answered
        assertEquals(List.of("silent 1 [t-0] 15"), said.lines);
    }

    /** The watch reads which broker a partition is read from off the consumer's metadata at each look. */
    @Test
    void onlyBrokersPartitionsAreReadFromAreWatched() {
        Set<TopicPartition> onlyTwo = new HashSet<>(Set.of(P1));
        run(30_000, 500, onlyTwo);
        assertEquals(List.of(), said.lines, "broker 1 leads nothing that is read");
    }
}
