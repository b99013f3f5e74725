package io.sluice.merge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.local.kafka.KafkaCluster;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Merges of inputs on two clusters into a topic on one of them, read back as read_committed readers see them. */
public class MergeTest {

    private static final long HOUR = 3_600_000;
    /** Recent: the brokers delete records older than their retention (7 days) soon after they are written. */
    private static final long BASE = System.currentTimeMillis() - 2 * HOUR;

    @Test
    void skewedInputsMergeIntoOneSortedCompleteOutputThatARerunReproducesByteForByte() throws Exception {
        KafkaCluster west = SharedKafka.cluster();
        KafkaCluster east = SharedKafka.second();
        MergeInputs inputs = new MergeInputs(List.of("west", "east"), List.of(west, east),
                List.of(Names.unique("merge-west"), Names.unique("merge-east")));
        west.createTopic(inputs.topics().get(0), 3);
        east.createTopic(inputs.topics().get(1), 3);
        long seed = new Random().nextLong();
        System.out.println("[merge] seed " + seed);
        Random random = new Random(seed);
        for (int p = 0; p < 3; p++) {
            inputs.produce(0, p, times(random, BASE, 600, p == 1)); // partition 1 of west in bursts of equal times
            if (p != 2) { // partition 2 of east is empty
                inputs.produce(1, p, times(random, BASE - HOUR, 500, false)); // east is an hour behind...
                inputs.produce(1, p, times(random, BASE, 300, false)); // ...then catches up
            }
        }
        String output = Names.unique("merged");
        MergeConfig config = inputs.merge(Names.unique("m"), west, output).budgetBytes(2 << 20).build();
        try (Merge merge = Merge.start(config, MergeInputs.quickMember())) {
            assertTrue(merge.awaitEnd(Duration.ofSeconds(60)), "merged to the inputs' ends");
            assertEquals(3 * 600 + 2 * 800, merge.counts().merged());
            assertEquals(0, merge.counts().late());
        }
        MergeInputs.assertMerged(inputs.expected(), MergeInputs.sources(west, output));

        String again = Names.unique("merged-again");
        try (Merge merge = Merge.start(inputs.merge(Names.unique("m"), west, again).build(),
                MergeInputs.quickMember())) {
            assertTrue(merge.awaitEnd(Duration.ofSeconds(60)));
        }
        assertEquals(MergeInputs.contents(west, output), MergeInputs.contents(west, again),
                "a second run's output is the same, record for record");
    }


    /** {@code n} non-decreasing event times from {@code start}; in bursts, runs of up to 20 equal times. */
    public static long[] times(Random random, long start, int n, boolean bursts) {
        long[] times = new long[n];
        long t = start;
        for (int k = 0; k < n; k++) {
            if (!bursts || random.nextInt(20) == 0) {
                t += random.nextInt(5_000);
            }
            times[k] = t;
        }
        return times;
    }
}
