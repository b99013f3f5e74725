package io.sluice.core.internal.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class PartitionLedgerTest {

    @Test
    void theWatermarkIsTheLowestPendingOffset() {
        PartitionLedger ledger = new PartitionLedger(100, 64);
        for (long o = 100; o < 105; o++) {
            ledger.dispatched(o);
        }
        assertFalse(ledger.completed(102));
        assertFalse(ledger.completed(101));
        assertEquals(100, ledger.watermark());
        assertTrue(ledger.completed(100));
        assertEquals(103, ledger.watermark(), "skips the completed 101 and 102");
        ledger.completed(103);
        ledger.completed(104);
        assertEquals(105, ledger.watermark());
    }

    @Test
    void gapsAndTheFinalTransactionMarkerDoNotHoldTheWatermarkBack() {
        PartitionLedger ledger = new PartitionLedger(0, 64);
        ledger.dispatched(0);
        ledger.dispatched(5); // 1..4 compacted away
        ledger.completed(0);
        assertEquals(5, ledger.watermark());
        ledger.completed(5);
        // the consumer stepped over a commit marker at offset 6
        ledger.positionAt(7);
        assertEquals(7, ledger.watermark());
        assertEquals(6, ledger.handedOut(), "the last record handed out was 5; 6 is a marker");
        assertEquals(7, ledger.end());
    }

    @Test
    void whatThePreviousOwnerCompletedBeyondWhereThisOneHasReadStaysInTheCompletionMap() {
        // the previous owner: record 0 stuck, 1..9 done; it commits offset 0 with that map when revoked
        PartitionLedger previous = new PartitionLedger(0, 64);
        for (long o = 0; o < 10; o++) {
            previous.dispatched(o);
        }
        for (long o = 1; o < 10; o++) {
            previous.completed(o);
        }
        CompletionMap committed = CompletionMap.decode(0, previous.completionMap().encode());

        PartitionLedger next = new PartitionLedger(0, 64, committed);
        assertEquals(offsets(1, 10), completeIn(next.completionMap(), 0, 64),
                "revoked before it read anything: it commits its predecessor's map, not an empty one");

        next.dispatched(0); // the dispatcher skips 1..4, which the map says are done
        next.positionAt(5);
        assertEquals(offsets(1, 10), completeIn(next.completionMap(), 0, 64),
                "read up to 5: 5..9 still come from the map");

        next.completed(0);
        assertEquals(5, next.watermark());
        assertEquals(offsets(5, 10), completeIn(next.completionMap(), 5, 64), "nothing pending: 5..9 are carried");

        next.dispatched(10); // 5..9 skipped
        next.positionAt(11);
        assertEquals(10, next.watermark());
        assertEquals(List.of(), completeIn(next.completionMap(), 10, 64), "read past the predecessor's map");
    }

    @Test
    void recordsBeyondTheWindowAreNotAdmitted() {
        PartitionLedger ledger = new PartitionLedger(0, 64);
        ledger.dispatched(0);
        for (long o = 1; o < 64; o++) {
            ledger.dispatched(o);
            ledger.completed(o);
        }
        assertFalse(ledger.admits(64), "offset 0 is stuck: 64 is a full window ahead");
        assertThrows(IllegalStateException.class, () -> ledger.dispatched(64));
        ledger.completed(0);
        assertTrue(ledger.admits(64 + 63));
    }

    @Test
    void completingTwiceOrOutsideIsAnError() {
        PartitionLedger ledger = new PartitionLedger(0, 64);
        ledger.dispatched(0);
        ledger.dispatched(1);
        ledger.completed(1);
        assertThrows(IllegalStateException.class, () -> ledger.completed(1));
        assertThrows(IllegalStateException.class, () -> ledger.completed(7));
    }

    @Test
    void agreesWithASimpleModelOnRandomInterleavings() {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        for (int round = 0; round < 200; round++) {
            int window = 64 << random.nextInt(4);
            long start = random.nextInt(1000);
            PartitionLedger ledger = new PartitionLedger(start, window);
            TreeSet<Long> pending = new TreeSet<>();
            List<Long> inFlight = new ArrayList<>();
            long next = start;
            long position = start;
            for (int step = 0; step < 2000; step++) {
                if (random.nextInt(3) > 0 && ledger.admits(next)) {
                    ledger.dispatched(next);
                    pending.add(next);
                    inFlight.add(next);
                    next += 1 + (random.nextInt(10) == 0 ? random.nextInt(5) : 0); // sometimes a gap
                    position = next;
                } else if (!inFlight.isEmpty()) {
                    long done = inFlight.remove(random.nextInt(inFlight.size()));
                    ledger.completed(done);
                    pending.remove(done);
                } else {
                    ledger.positionAt(position);
                }
                long expected = pending.isEmpty() ? ledger.end() : pending.first();
                assertEquals(expected, ledger.watermark(), "seed " + seed + " round " + round + " step " + step);
                CompletionMap map = CompletionMap.decode(ledger.watermark(), ledger.completionMap().encode());
                for (long o = ledger.watermark(); o < ledger.end(); o++) {
                    boolean complete = !pending.contains(o);
                    if (complete != map.isComplete(o) && !(o >= ledger.watermark() + map.span() && !complete)) {
                        throw new AssertionError("seed " + seed + ": offset " + o + " complete=" + complete
                                + " but the decoded map says " + map.isComplete(o));
                    }
                }
            }
        }
    }

    private static List<Long> completeIn(CompletionMap map, long from, long to) {
        List<Long> complete = new ArrayList<>();
        for (long o = from; o < to; o++) {
            if (map.isComplete(o)) {
                complete.add(o);
            }
        }
        return complete;
    }

    private static List<Long> offsets(long from, long to) {
        List<Long> list = new ArrayList<>();
        for (long o = from; o < to; o++) {
            list.add(o);
        }
        return list;
    }
}
