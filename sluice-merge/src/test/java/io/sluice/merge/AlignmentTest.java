package io.sluice.merge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.local.kafka.KafkaCluster;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Alignment on real clusters: one input an hour ahead of the other, a small budget. None of its records can be merged
 * before the other input's, so its partition fills its share of the budget and is paused there (the engine's
 * per-partition pause), never holding more than its share and one fetch; it is resumed as the other input drains,
 * and the output is in merge order.
 */
class AlignmentTest {

    private static final long HOUR = 3_600_000;
    private static final long BASE = System.currentTimeMillis() - 3 * HOUR;
    private static final long BUDGET = 1 << 20;
    private static final int PAD = 1_000;

    @Test
    void anInputFarAheadIsPausedWithinItsShareOfTheBudgetAndTheOutputStaysInOrder() throws Exception {
        KafkaCluster west = SharedKafka.cluster();
        KafkaCluster east = SharedKafka.second();
        MergeInputs inputs = new MergeInputs(List.of("west", "east"), List.of(west, east),
                List.of(Names.unique("align-west"), Names.unique("align-east")));
        west.createTopic(inputs.topics().get(0), 1);
        east.createTopic(inputs.topics().get(1), 1);
        inputs.produce(0, 0, times(BASE + HOUR, 1_200), PAD); // west: an hour ahead, 1.2 MB
        inputs.produce(1, 0, times(BASE, 3_000), PAD); // east: 3 MB, all before west's first record
        String output = Names.unique("align-out");
        MergeConfig config = inputs.merge(Names.unique("m"), west, output).budgetBytes(BUDGET).build();
        long share = BUDGET / 2; // one output partition, two inputs
        long fetch = share / 2; // the readers' max.partition.fetch.bytes: half the smallest share
        try (Merge merge = Merge.start(config, MergeInputs.quickMember())) {
            assertTrue(merge.awaitEnd(Duration.ofSeconds(60)), "merged to the inputs' ends");
            assertEquals(4_200, merge.counts().merged());
            long pauses = merge.counts().pauses(0);
            long peak = merge.counts().peakHeld(0);
            System.out.println("[merge-align] west paused " + pauses + " times, held at most " + peak + " bytes (share "
                    + share + "); east paused " + merge.counts().pauses(1) + " times, held at most "
                    + merge.counts().peakHeld(1));
            assertTrue(pauses >= 1, "the input ahead was paused");
            assertTrue(peak >= share, "it held its share before it was paused: " + peak);
            // a fetch lands whole, paused or not; each record is counted with 64 bytes of overhead
            long records = fetch / PAD + 1;
            assertTrue(peak <= share + fetch + records * 64, "held " + peak + " bytes, more than its share " + share
                    + " and one fetch " + fetch);
            assertTrue(merge.counts().peakHeld(1) <= share + fetch + records * 64, "east within its share too");
        }
        MergeInputs.assertMerged(inputs.expected(), MergeInputs.sources(west, output));
    }

    private static long[] times(long start, int n) {
        long[] times = new long[n];
        for (int k = 0; k < n; k++) {
            times[k] = start + k * 1_000L;
        }
        return times;
    }
}
