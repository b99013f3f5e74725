package io.sluice.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The bit sets behind the audit's bookkeeping, checked against java.util.BitSet as the reference. */
class OffsetSetTest {

    @Test
    void addAndContainsAcrossChunkAndWordEdges() {
        OffsetSet set = new OffsetSet();
        long[] offsets = {0, 63, 64, 4095, 4096, 4097, 1L << 40, (1L << 40) + 4095};
        for (long o : offsets) {
            assertTrue(set.add(o), "new: " + o);
        }
        assertFalse(set.add(4096), "already there");
        assertEquals(offsets.length, set.size());
        for (long o : offsets) {
            assertTrue(set.contains(o), "contains " + o);
        }
        assertFalse(set.contains(1));
        assertFalse(set.contains(-1));
        assertThrows(IllegalArgumentException.class, () -> set.add(-5));
    }

    @Test
    void nextAndNextAbsentWalkRunsOverChunkBoundaries() {
        OffsetSet set = new OffsetSet();
        set.addRange(4090, 4100);
        set.addRange(10_000, 10_000);
        assertEquals(4090, set.next(0));
        assertEquals(4096, set.next(4096));
        assertEquals(10_000, set.next(4101));
        assertEquals(-1, set.next(10_001));
        assertEquals(4101, set.nextAbsent(4090));
        assertEquals(5, set.nextAbsent(5));
        assertEquals(10_001, set.nextAbsent(10_000));
        List<String> runs = new ArrayList<>();
        set.forEachRun((first, last) -> runs.add(first + "-" + last));
        assertEquals(List.of("4090-4100", "10000-10000"), runs);
        assertEquals(12, set.size());
        assertEquals(6, set.between(4095, 10_000 - 1).size());
    }

    @Test
    void addRangeCountsOnlyNewOffsets() {
        OffsetSet set = new OffsetSet();
        set.addRange(100, 199);
        set.addRange(150, 8_300);
        assertEquals(8_201, set.size());
        assertEquals(100, set.next(0));
        assertEquals(8_301, set.nextAbsent(100));
    }

    @Test
    void setOperationsMatchBitSet() {
        Random random = new Random(42);
        for (int round = 0; round < 20; round++) {
            BitSet a = new BitSet();
            BitSet b = new BitSet();
            OffsetSet x = new OffsetSet();
            OffsetSet y = new OffsetSet();
            for (int i = 0; i < 3_000; i++) {
                int o = random.nextInt(20_000);
                a.set(o);
                x.add(o);
                int p = 5_000 + random.nextInt(20_000);
                b.set(p);
                y.add(p);
            }
            BitSet and = (BitSet) a.clone();
            and.and(b);
            BitSet andNot = (BitSet) a.clone();
            andNot.andNot(b);
            assertSame(and, x.and(y));
            assertSame(andNot, x.andNot(y));
            assertSame(a.get(4_000, 12_001), x.between(4_000, 12_000), 4_000);
            
            OffsetSet union = new OffsetSet();
            OffsetSet twice = new OffsetSet();
            union.addAll(x, twice);
            union.addAll(y, twice);
            BitSet or = (BitSet) a.clone();
            or.or(b);
            assertSame(or, union);
            assertSame(and, twice);
        }
    }

    @Test
    void tenMillionContiguousOffsetsTakeAboutOneBitEach() {
        OffsetSet set = new OffsetSet();
        set.addRange(5_000_000, 15_000_000 - 1);
        assertEquals(10_000_000, set.size());
        // 4,096 offsets in 64 longs per chunk: 10M offsets in 2,442 chunks of 512 bytes, about 1.3 MB
        assertEquals((15_000_000 - 1) / 4096 - 5_000_000 / 4096 + 1, set.chunks());
        List<String> runs = new ArrayList<>();
        set.forEachRun((first, last) -> runs.add(first + "-" + last));
        assertEquals(List.of("5000000-14999999"), runs);
        OffsetSet hole = new OffsetSet();
        hole.addRange(7_000_000, 7_000_009);
        assertEquals(9_999_990, set.andNot(hole).size());
    }

    private static void assertSame(BitSet expected, OffsetSet actual) {
        assertSame(expected, actual, 0);
    }

    private static void assertSame(BitSet expected, OffsetSet actual, int shift) {
        assertEquals(expected.cardinality(), actual.size());
        for (int i = expected.nextSetBit(0); i >= 0; i = expected.nextSetBit(i + 1)) {
            assertTrue(actual.contains(i + shift), "missing " + (i + shift));
        }
    }
}
