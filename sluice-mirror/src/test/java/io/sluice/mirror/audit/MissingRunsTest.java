package io.sluice.mirror.audit;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Missing offsets kept as runs: a late copy takes its offset out, once, wherever it is in a run. */
class MissingRunsTest {

    @Test
    void aLateCopyTakesItsOffsetOutOfItsRunOnce() {
        MissingRuns runs = new MissingRuns();
        for (long offset = 1; offset <= 5; offset++) {
            runs.add(offset);
        }
        runs.interrupt();
        runs.add(8);
        assertTrue(runs.remove(3), "inside a run: split");
        assertFalse(runs.remove(3), "taken out already: a second copy");
        assertTrue(runs.remove(1));
        assertTrue(runs.remove(5));
        assertTrue(runs.remove(2));
        assertTrue(runs.remove(4));
        assertFalse(runs.remove(6), "between runs: never missing");
        assertTrue(runs.remove(8));
        assertFalse(runs.remove(8));
    }

    @Test
    void aRunWhoseLastOffsetCameLateIsNotExtendedOverIt() {
        MissingRuns runs = new MissingRuns();
        runs.add(10);
        runs.add(11);
        assertTrue(runs.remove(11));
        runs.add(12);
        assertFalse(runs.remove(11), "11 has its copy: the next missing offset starts a new run");
        assertTrue(runs.remove(12));
        assertTrue(runs.remove(10));
    }
}
