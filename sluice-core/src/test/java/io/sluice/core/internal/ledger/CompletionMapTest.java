package io.sluice.core.internal.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class CompletionMapTest {

    @Test
    void oneStuckRecordWithALongCompleteTailEncodesAsAFewRunLengths() {
        PartitionLedger ledger = new PartitionLedger(1_000, 16_384);
        for (long o = 1_000; o < 1_000 + 16_000; o++) {
            ledger.dispatched(o);
            if (o != 1_000) {
                ledger.completed(o);
            }
        }
        String encoded = ledger.completionMap().encode();
        assertTrue(encoded.startsWith("R"), encoded);
        assertTrue(encoded.length() < 10, encoded);
        CompletionMap decoded = CompletionMap.decode(1_000, encoded);
        assertFalse(decoded.isComplete(1_000));
        assertTrue(decoded.isComplete(1_001));
        assertTrue(decoded.isComplete(16_999));
        assertFalse(decoded.isComplete(17_000));
    }

    @Test
    void theWorstCaseInterleavingUsesTheBitsetAndStaysWithinTheBound() {
        int window = 16_384;
        PartitionLedger ledger = new PartitionLedger(0, window);
        for (long o = 0; o < window; o++) {
            ledger.dispatched(o);
            if (o % 2 == 1) {
                ledger.completed(o);
            }
        }
        String encoded = ledger.completionMap().encode();
        assertTrue(encoded.startsWith("B"), encoded.substring(0, 10));
        assertTrue(encoded.length() <= CompletionMap.maxEncodedLength(window),
                encoded.length() + " > " + CompletionMap.maxEncodedLength(window));
        assertEquals(window / 2, CompletionMap.decode(0, encoded).completeCount());
    }

    @Test
    void nothingCompleteBeyondTheWatermarkIsTheEmptyString() {
        PartitionLedger ledger = new PartitionLedger(5, 64);
        ledger.dispatched(5);
        ledger.dispatched(6);
        assertEquals("", ledger.completionMap().encode());
        assertTrue(CompletionMap.decode(5, "").isEmpty());
    }

    @Test
    void corruptTextIsRejectedWithWhatIsWrong() {
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> CompletionMap.decode(0, "Xabc"));
        assertTrue(unknown.getMessage().contains("unknown completion map kind 'X'"), unknown.getMessage());
        IllegalArgumentException truncated = assertThrows(IllegalArgumentException.class,
                () -> CompletionMap.decode(0, "R_w"));
        assertTrue(truncated.getMessage().contains("completion map"), truncated.getMessage());
    }
}
