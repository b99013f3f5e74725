package io.sluice.storage.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.storage.rolling.RollTrigger;
import org.junit.jupiter.api.Test;

/** The sink's counters: rolls by cause, as a snapshot that later counting leaves as it was. */
class ArchiveCountersTest {

    @Test
    void rollsForcedEarlyAreCountedByCauseAndEveryRollInRolls() {
        ArchiveCounters counters = new ArchiveCounters();
        for (RollTrigger trigger : RollTrigger.values()) {
            counters.rolling(trigger);
            counters.rolled(2);
        }
        counters.rolling(RollTrigger.OPEN_FILE_BOUND); // a roll that failed: counted by cause, not as a roll
        counters.published();
        counters.evicted(); // a file sealed alone: a sealed file, not a roll

        ArchiveCounts counts = counters.snapshot();
        // memory forces rolls twice: the sink's limit (MEMORY_PRESSURE) and the engine's budget (BUDGET)
        assertEquals(new ArchiveCounts(RollTrigger.values().length, 2, 2, 1, 2L * RollTrigger.values().length + 1, 1),
                counts);

        counters.rolled(1);
        counters.published();
        assertEquals(RollTrigger.values().length, counts.rolls(), "a snapshot stays as it was taken");
        assertEquals(2, counters.snapshot().published());
    }
}
