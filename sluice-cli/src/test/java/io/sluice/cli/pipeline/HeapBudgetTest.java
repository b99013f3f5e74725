package io.sluice.cli.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The memory budget a heap holds: derived from it by default, refused in words when set too large for it. */
class HeapBudgetTest {

    private static final long MIB = 1L << 20;
    private static final long DEFAULT = 256 * MIB;

    @Test
    void withoutASettingTheBudgetIsWhatTheHeapHoldsUpToTheEnginesDefault() {
        assertEquals(DEFAULT, HeapBudget.derived(4096 * MIB, DEFAULT), "a large heap: the engine's default");
        assertEquals(228 * MIB, HeapBudget.derived(512 * MIB, DEFAULT), "(512 - 56) / 2");
        assertEquals(20 * MIB, HeapBudget.derived(96 * MIB, DEFAULT));
        assertEquals(Optional.empty(), HeapBudget.problem(HeapBudget.derived(512 * MIB, DEFAULT), 512 * MIB, false));
    }

    @Test
    void aHeapTooSmallForAnyBudgetIsRefusedWithTheHeapItNeeds() {
        String problem = HeapBudget.problem(HeapBudget.derived(62 * MIB, DEFAULT), 62 * MIB, false).orElseThrow();
        assertEquals("this JVM's heap of 62 MiB (its -Xmx, less what the collector keeps aside) is too small for a "
                + "run: it needs at least 72 MiB (twice the smallest memory budget, 8 MiB, plus 56 MiB for the JVM and "
                + "the Kafka clients); give the JVM more heap, e.g. SLUICE_JAVA_OPTS=-Xmx256m ./sluice ...", problem);
    }

    @Test
    void aBudgetSetTooLargeForTheHeapIsRefusedWithTheNumbersAndBothFixes() {
        String problem = HeapBudget.problem(256 * MIB, 512 * MIB, true).orElseThrow();
        assertTrue(problem.startsWith("256 MiB does not fit in this JVM's heap of 512 MiB (its -Xmx, less what the "
                + "collector keeps aside): a budget needs twice its size plus 56 MiB of heap, here 568 MiB"), problem);
        assertTrue(problem.endsWith("Lower it to at most 228MiB, or give the JVM more heap, e.g. "
                + "SLUICE_JAVA_OPTS=-Xmx568m ./sluice ..."), problem);
        assertEquals(Optional.empty(), HeapBudget.problem(256 * MIB, 568 * MIB, true), "exactly enough");
        String tiny = HeapBudget.problem(256 * MIB, 64 * MIB, true).orElseThrow();
        assertTrue(tiny.endsWith("need their part). Give the JVM more heap, e.g. SLUICE_JAVA_OPTS=-Xmx568m "
                + "./sluice ..."), tiny);
        assertTrue(HeapBudget.problem(4 * MIB, 4096 * MIB, true).orElseThrow().contains("below the smallest budget"));
    }
}
