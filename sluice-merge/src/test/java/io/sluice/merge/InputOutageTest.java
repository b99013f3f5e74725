package io.sluice.merge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.local.kafka.KafkaCluster;
import io.sluice.merge.audit.MergeAudit;
import io.sluice.merge.audit.MergeAuditReport;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A data center's cluster goes down mid-run: the merge waits for it up to max-wait, goes on with the other input,
 * and once the cluster is back, what it sends below the merged position is late — flagged, counted, and the audit
 * still finds every record once. The silence is said while it lasts, by input ({@code Merge#inputsUnanswered}, the
 * progress line's words), and no longer once the input answers.
 */
@Tag("slow")
class InputOutageTest {

    @Test
    void aStoppedInputClusterIsWaitedForUpToMaxWaitAndItsLaterRecordsAreLate() throws Exception {
        long t = System.currentTimeMillis() - 600_000;
        KafkaCluster target = SharedKafka.cluster();
        try (KafkaCluster westDc = KafkaCluster.builder().name("merge-west-dc").start()) {
            MergeInputs inputs = new MergeInputs(List.of("west", "east"), List.of(westDc, SharedKafka.second()),
                    List.of(Names.unique("outage-west"), Names.unique("outage-east")));
            westDc.createTopic(inputs.topics().get(0), 1);
            SharedKafka.second().createTopic(inputs.topics().get(1), 1);
            inputs.produce(0, 0, times(t, 10));
            inputs.produce(1, 0, times(t + 1, 10));
            MergeConfig config = inputs.merge(Names.unique("outage"), target, Names.unique("outage-out"))
                    .untilEnd(false).maxWait(Duration.ofSeconds(3)).build();
            try (Merge merge = Merge.start(config, MergeInputs.quickMember())) {
                await("both inputs merged", () -> merge.counts().merged() == 20);

                assertEquals(Map.of(), merge.inputsUnanswered());

                westDc.nodes().get(0).stop();
                inputs.produce(1, 0, times(t + 1_000, 10));
                await("east merged without west once west was silent for max-wait",
                        () -> merge.counts().merged() == 30);
                assertEquals(0, merge.counts().late());
                await("west's silence said (after max-wait, shorter than 15 s here)",
                        () -> merge.inputsUnanswered().containsKey("west"));
                assertEquals(Set.of("west"), merge.inputsUnanswered().keySet(), "east answers");

                westDc.nodes().get(0).start();
                inputs.produce(0, 0, times(t + 500, 5)); // behind east's last merged record (t + 1009)
                await("west's records after the outage merged", () -> merge.counts().merged() == 35);
                assertEquals(5, merge.counts().late());
                await("west answers again", () -> merge.inputsUnanswered().isEmpty());
            }
            MergeAuditReport audit = MergeAudit.run(config);
            assertTrue(audit.ok(), audit.firstProblem());
            assertEquals(5, audit.partitions().get(0).lateRecords());
            assertEquals(35, audit.partitions().get(0).checked());
        }
    }

    /**
     * One partition of an input loses its only broker while the rest of its cluster answers: the input's silence watch
     * hears from the cluster, so nothing was said, and the reader asked the ends of its partitions at once, a call that
     * timed out for all of them: the input's healthy partition could not be confirmed at its end, and its output
     * partition waited max-wait before merging the other input's newer records. Now the partition without a leader is
     * left out of that call and said by name, and only its own output partition waits.
     */
    @Test
    void aPartitionWithoutALeaderIsSaidAndHoldsOnlyItsOwnOutputPartition() throws Exception {
        long t = System.currentTimeMillis() - 600_000;
        KafkaCluster target = SharedKafka.cluster();
        // a controller quorum of one, and a broker that can go: its controlled shutdown takes the partition's leader
        try (KafkaCluster westDc = KafkaCluster.builder().name("merge-west-leaders").start()) {
            westDc.addBroker(null);
            MergeInputs inputs = new MergeInputs(List.of("west", "east"), List.of(westDc, SharedKafka.second()),
                    List.of(Names.unique("leaderless-west"), Names.unique("leaderless-east")));
            westDc.createTopic(new NewTopic(inputs.topics().get(0), Map.of(0, List.of(1), 1, List.of(2))));
            SharedKafka.second().createTopic(inputs.topics().get(1), 2);
            for (int partition = 0; partition < 2; partition++) {
                inputs.produce(0, partition, times(t, 10));
                inputs.produce(1, partition, times(t + 1, 10));
            }
            // longer than the test waits: an input partition that is neither confirmed at its end nor silent for
            // max-wait holds its output partition for the whole test
            Duration maxWait = Duration.ofSeconds(90);
            MergeConfig config = inputs.merge(Names.unique("leaderless"), target, Names.unique("leaderless-out"))
                    .untilEnd(false).maxWait(maxWait).build();
            try (Merge merge = Merge.start(config, MergeInputs.quickMember())) {
                await("both inputs merged", () -> merge.counts().merged() == 40);

                westDc.node(2).stop();
                await("the partition without a leader said (after 15 s)",
                        () -> merge.inputPartitionsWithoutLeader().getOrDefault("west", Map.of()).containsKey(1));
                assertEquals(Set.of(1), merge.inputPartitionsWithoutLeader().get("west").keySet());
                assertEquals(Map.of(), merge.inputsUnanswered(), "the cluster answers");
                try (MergeProgress progress = MergeProgress.of(config, Duration.ofSeconds(10))) {
                    // the lag of the partitions whose cluster answers, the other's end unknown: one call for all of
                    // them failed, and the run's line lost every input's lag
                    long asked = System.nanoTime();
                    List<MergeProgress.InputLag> lags = progress.read();
                    Duration took = Duration.ofNanos(System.nanoTime() - asked);
                    assertEquals(List.of("1 west"), lags.stream().filter(l -> !l.known())
                            .map(l -> l.partition() + " " + l.input()).toList(), lags.toString());
                    assertEquals(4, lags.size(), lags.toString());
                    // not asked at all: waiting for its answer held every sample for the whole timeout
                    assertTrue(took.compareTo(Duration.ofSeconds(5)) < 0, "a partition without a leader is not "
                            + "waited for; the sample took " + took);
                }
                // west's partition 0 was last confirmed at its end before the stop, long enough ago not to count now:
                // east's newer records go into output partition 0 once it is confirmed again
                long sent = System.nanoTime();
                inputs.produce(1, 0, times(t + 1_000, 10));
                await("east's newer records merged into output partition 0", () -> merge.counts().merged() == 50);
                Duration took = Duration.ofNanos(System.nanoTime() - sent);
                assertTrue(took.compareTo(Duration.ofSeconds(15)) < 0, "west's partition 0 is confirmed at its end "
                        + "while partition 1 has no leader: output partition 0 does not wait max-wait; took " + took);

                westDc.node(2).start();
                await("the partition has a leader again", () -> merge.inputPartitionsWithoutLeader().isEmpty());
                inputs.produce(0, 1, times(t + 2_000, 5));
                inputs.produce(1, 1, times(t + 2_001, 5));
                await("both inputs' newer records merged into output partition 1",
                        () -> merge.counts().merged() == 60);
            }
            MergeAuditReport audit = MergeAudit.run(config);
            assertTrue(audit.ok(), audit.firstProblem());
        }
    }

    /**
     * One broker of an input stops answering this merge while its cluster still lists it as the leader (a network
     * fault between the merge and that broker alone, or a broker that froze before the controller fenced it): nothing
     * says "no leader", and the reader's one question for the ends of all its partitions timed out for all of them, so
     * the output partition fed by the input's healthy broker waited max-wait too. Each partition's end is now asked on
     * its own, without holding the reader: only the cut-off partition's output partition waits, and that broker's
     * silence is said by name.
     */
    @Test
    void aBrokerCutOffFromTheMergeAloneHoldsOnlyTheOutputPartitionsItLeads() throws Exception {
        long t = System.currentTimeMillis() - 600_000;
        KafkaCluster target = SharedKafka.cluster();
        try (KafkaCluster westDc = KafkaCluster.builder().name("merge-west-cut").proxied().start()) {
            westDc.addBroker(null);
            MergeInputs inputs = new MergeInputs(List.of("west", "east"), List.of(westDc, SharedKafka.second()),
                    List.of(Names.unique("cut-west"), Names.unique("cut-east")));
            westDc.createTopic(new NewTopic(inputs.topics().get(0), Map.of(0, List.of(1), 1, List.of(2))));
            SharedKafka.second().createTopic(inputs.topics().get(1), 2);
            for (int partition = 0; partition < 2; partition++) {
                inputs.produce(0, partition, times(t, 10));
                inputs.produce(1, partition, times(t + 1, 10));
            }
            Duration maxWait = Duration.ofSeconds(90); // longer than the test waits, as above
            MergeConfig config = inputs.merge(Names.unique("cut"), target, Names.unique("cut-out"))
                    .untilEnd(false).maxWait(maxWait).build();
            try (Merge merge = Merge.start(config, MergeInputs.quickMember())) {
                await("both inputs merged", () -> merge.counts().merged() == 40);

                westDc.node(2).proxy().blackhole();
                // west's partition 0 was confirmed at its end before the cut; past the confirmation's age, east's
                // newer records wait on a fresh one
                Thread.sleep(io.sluice.merge.merging.InputBuffer.STALE_MILLIS + 500);
                long sent = System.nanoTime();
                inputs.produce(1, 0, times(t + 1_000, 10));
                inputs.produce(1, 1, times(t + 1_000, 5)); // held: west's partition 1 cannot be confirmed at its end
                await("east's newer records merged into output partition 0", () -> merge.counts().merged() == 50);
                Duration took = Duration.ofNanos(System.nanoTime() - sent);
                assertTrue(took.compareTo(Duration.ofSeconds(15)) < 0, "west's partition 0 is confirmed at its end "
                        + "while broker 2 does not answer: output partition 0 does not wait max-wait; took " + took);
                assertEquals(Map.of(), merge.inputsUnanswered(), "broker 1 answers: the cluster is not silent");
                await("broker 2's silence said, with the partition it leads",
                        () -> merge.inputBrokersUnanswered().getOrDefault("west", Map.of()).containsKey(2));
                assertEquals(Set.of(2), merge.inputBrokersUnanswered().get("west").keySet());
                assertEquals(50, merge.counts().merged(), "only output partition 0 went on: partition 1 waits for "
                        + "west's partition 1, as max-wait says, while its broker is cut off");

                westDc.node(2).proxy().restore();
                await("broker 2 answers again", () -> merge.inputBrokersUnanswered().isEmpty());
                inputs.produce(0, 1, times(t + 2_000, 5));
                inputs.produce(1, 1, times(t + 2_001, 5));
                await("both inputs' newer records merged into output partition 1",
                        () -> merge.counts().merged() == 65);
            }
            MergeAuditReport audit = MergeAudit.run(config);
            assertTrue(audit.ok(), audit.firstProblem());
        }
    }

    private static long[] times(long from, int n) {
        long[] times = new long[n];
        for (int i = 0; i < n; i++) {
            times[i] = from + i;
        }
        return times;
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("waited 60 s for: " + what);
            }
            Thread.sleep(50);
        }
    }
}
