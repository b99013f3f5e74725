package io.sluice.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.audit.AuditReport.DuplicateRun;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Duplicated offsets grouped into runs held by the same files. */
class DuplicateRunsTest {

    private static final List<FoundPartition.FileSpan> FILES = List.of(
            new FoundPartition.FileSpan("a", 0, 0, 0),
            new FoundPartition.FileSpan("b", 0, 0, 0),
            new FoundPartition.FileSpan("c", 0, 0, 0));

    @Test
    void anInterleavedCopyIsOneRunNamingBothFiles() {
        OffsetSet a = new OffsetSet();
        OffsetSet b = new OffsetSet();
        for (long o = 100; o < 500; o += 4) { // one category's file: every fourth offset
            a.add(o);
            b.add(o);
        }
        List<DuplicateRun> runs = DuplicateFinder.runs(FILES, List.of(a, b, new OffsetSet()), 10);
        assertEquals(List.of(new DuplicateRun(100, 496, 100, List.of("a", "b"))), runs);
    }

    @Test
    void aChangeOfHoldersStartsANewRunAndTheLimitStopsTheWalk() {
        OffsetSet a = new OffsetSet();
        OffsetSet b = new OffsetSet();
        OffsetSet c = new OffsetSet();
        a.addRange(0, 9);
        b.addRange(0, 4);
        c.addRange(5, 9);
        c.addRange(20, 20);
        b.addRange(30, 30); // held twice inside b itself
        List<DuplicateRun> runs = DuplicateFinder.runs(FILES, List.of(a, b, c), 10);
        assertEquals(List.of(
                new DuplicateRun(0, 4, 5, List.of("a", "b")),
                new DuplicateRun(5, 9, 5, List.of("a", "c")),
                new DuplicateRun(20, 20, 1, List.of("c")),
                new DuplicateRun(30, 30, 1, List.of("b"))), runs);
        assertEquals(2, DuplicateFinder.runs(FILES, List.of(a, b, c), 2).size());
    }
}
