package io.sluice.core.internal.budget;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Where a partition pauses and resumes: its share of the budget, and the cap on its queued records. */
class MemoryBudgetThresholdsTest {

    private static final long MIB = 1024 * 1024;
    /** The deepest queue a partition can learn: 16 fetches of 1 MiB. */
    private static final long CAP = 16 * MIB;

    /** The default budget over one partition: a share of 256 MiB, fetches of 1 MiB. */
    private static MemoryBudget onePartition() {
        MemoryBudget budget = new MemoryBudget(256 * MIB);
        budget.partitionsAssigned(1);
        return budget;
    }

    @Test
    void queuedRecordsPauseAtTheirQueueCapHoweverLargeTheShare() {
        MemoryBudget budget = onePartition();
        long cap = 4 * MIB;
        assertFalse(budget.atShare(cap - 1, 0, cap));
        assertTrue(budget.atShare(cap, 0, cap));
        assertFalse(budget.belowResumeMark(cap / 2 + 1, 0, cap));
        assertTrue(budget.belowResumeMark(cap / 2, 0, cap));
    }

    @Test
    void whatTheSinkHoldsFillsTheRestOfTheShareAndPausesOnlyThere() {
        MemoryBudget budget = onePartition();
        // 8 MiB queued and 200 MiB of open files: under the cap and under the share
        assertFalse(budget.atShare(8 * MIB, 200 * MIB, CAP));
        // the share (less one fetch) reached with files held: paused though the queue is short
        assertTrue(budget.atShare(8 * MIB, 247 * MIB, CAP));
        // resumed only once queue and files together are down to half the share
        assertFalse(budget.belowResumeMark(1 * MIB, 200 * MIB, CAP));
        assertTrue(budget.belowResumeMark(1 * MIB, 120 * MIB, CAP));
    }

    @Test
    void aSmallBudgetSharedByManyPartitionsPausesOnTheShareBeforeTheCap() {
        MemoryBudget budget = new MemoryBudget(4 * MIB); // fetches of 64 KiB
        budget.partitionsAssigned(8); // a share of 512 KiB
        assertTrue(budget.atShare(512 * 1024, 0, MIB));
        assertFalse(budget.atShare(200 * 1024, 0, MIB));
    }
}
