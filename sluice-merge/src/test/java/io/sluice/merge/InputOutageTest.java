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
