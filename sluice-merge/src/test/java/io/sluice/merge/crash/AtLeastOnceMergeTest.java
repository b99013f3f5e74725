package io.sluice.merge.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.core.crash.CrashPoints;
import io.sluice.local.process.ChildProcess;
import io.sluice.merge.MergeDelivery;
import io.sluice.merge.MergeInputs;
import io.sluice.merge.audit.MergeAudit;
import io.sluice.merge.audit.MergeAuditReport;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An at-least-once merge in a child JVM, killed -9 at a seeded moment mid-merge, or halted with records acknowledged
 * and their commit not made, and run again: every input record is in the output at least once, and each output
 * partition holds the merge order with one repeated window — what the stopped merge wrote after its last commit,
 * written again by the rerun from the committed positions, in the same order. verify, in at-least-once mode, passes
 * and counts exactly those repeats.
 */
@Tag("slow")
@Execution(ExecutionMode.CONCURRENT) // two cases at a time (junit-platform.properties): each has its own topics
class AtLeastOnceMergeTest {

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {4242L})
    void aKilledMergeRunAgainRepeatsOnlyItsLastWindowAndKeepsTheMergeOrder(long seed) throws Exception {
        MergeCrashTest.Run run = new MergeCrashTest.Run(MergeDelivery.AT_LEAST_ONCE);
        ChildProcess child = run.start();
        run.killMidMerge(child, seed);
        run.finish(MergeChild.INSTANCE);
        System.out.println("[merge-alo-test] seed " + seed + ": " + checkRepeatedWindows(run) + " records written "
                + "twice");
    }

    @Test
    void aMergeHaltedAfterItsRecordsWereAcknowledgedWritesThemAgainInTheSameOrder() throws Exception {
        MergeCrashTest.Run run = new MergeCrashTest.Run(MergeDelivery.AT_LEAST_ONCE);
        ChildProcess child = run.start("-Dsluice.crash.at=merge.after-send:3");
        OptionalInt status = child.exitStatusWithin(Duration.ofSeconds(60));
        if (status.isEmpty()) {
            child.kill();
        }
        assertEquals(OptionalInt.of(CrashPoints.HALT_STATUS), status, child::tail);
        run.finish(MergeChild.INSTANCE);
        long repeated = checkRepeatedWindows(run);
        assertTrue(repeated > 0, "the halted merge's acknowledged, uncommitted records are written again");
    }

    /** Checks each partition's output and verify; returns how many records were written twice. */
    private static long checkRepeatedWindows(MergeCrashTest.Run run) throws Exception {
        Map<Integer, List<String>> expected = run.inputs.expected();
        Map<Integer, List<String>> actual = MergeInputs.sources(run.west, run.output);
        assertEquals(expected.keySet(), actual.keySet(), "output partitions with records");
        long repeated = 0;
        for (int p : expected.keySet()) {
            repeated += oneRepeatedWindow(p, expected.get(p), actual.get(p));
        }
        MergeAuditReport audit = MergeAudit.run(MergeChild.config(run.args()).build());
        assertTrue(audit.ok(), audit.text());
        assertTrue(audit.atLeastOnce());
        assertEquals(repeated, audit.partitions().stream().mapToLong(MergeAuditReport.Partition::repeatedRecords)
                .sum(), "verify counts the repeats: " + audit.text());
        assertEquals(0, audit.partitions().stream().mapToLong(MergeAuditReport.Partition::uncommittedRecords).sum(),
                "the rerun committed everything it wrote");
        return repeated;
    }

    /**
     * Asserts that {@code actual} is {@code expected[0, j)} followed by {@code expected[i, n)} with {@code i <= j}:
     * the merge order, the window {@code [i, j)} written twice. Returns the window's length.
     */
    private static int oneRepeatedWindow(int partition, List<String> expected, List<String> actual) {
        int j = 0;
        while (j < actual.size() && j < expected.size() && actual.get(j).equals(expected.get(j))) {
            j++;
        }
        int repeated = actual.size() - expected.size();
        int at = j;
        assertTrue(repeated >= 0 && repeated <= j, () -> "partition " + partition + ": " + actual.size()
                + " records for " + expected.size() + " input records, the merge order up to " + at);
        int i = j - repeated;
        assertEquals(expected.subList(i, expected.size()), actual.subList(j, actual.size()), "partition " + partition
                + ": after the first " + j + " records in merge order, the rerun goes on from record " + i);
        return repeated;
    }
}
