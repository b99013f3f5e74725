package io.sluice.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Expected against found for one partition, and how the report shows the resulting sets. */
class PartitionSetsTest {

    @Test
    void missingDuplicatedAndExactlyOnceAddUpToExpected() {
        // Kafka: log start 100, range 100..999 read_committed, but 500 and 501 are a transaction's marker and an
        // aborted record; 300 was dead-lettered
        KafkaPartition kafka = new KafkaPartition(0, 0, 100, 1_000, 1_000);
        kafka.present.addRange(100, 499);
        kafka.present.addRange(502, 999);
        OffsetSet dead = new OffsetSet();
        dead.add(300);
        dead.add(5_000); // another range's dead letter: not ours to exclude

        FoundPartition found = new FoundPartition();
        found.add("a", rows(0, 99));         // retention removed these from Kafka
        found.add("b", rows(100, 399));
        found.add("c", rows(350, 449));      // 350..399 twice
        found.add("d", rows(460, 501));      // 450..459 missing; 500, 501 not in Kafka's committed view
        found.add("e", rows(502, 999, 777)); // 777 twice in the same file
        found.add("f", rows(1_000, 1_009));  // after the range

        PartitionSets sets = new PartitionSets(kafka, dead);
        sets.compare(found);

        assertEquals(898 - 1, sets.expected.size());
        assertEquals(1, sets.deadLettered.size());
        assertEquals(2, sets.notInCommittedView);
        assertEquals(List.of(new OffsetRanges.Span(450, 459)), OffsetRanges.of(sets.missing, 10).listed());
        OffsetRanges duplicated = OffsetRanges.of(sets.duplicated, 10);
        assertEquals(51, duplicated.offsets());
        assertEquals(List.of(new OffsetRanges.Span(350, 399), new OffsetRanges.Span(777, 777)), duplicated.listed());
        assertEquals(sets.expected.size() - 10 - 51, sets.exactlyOnce);
        assertEquals(100, sets.belowLogStart.size());
        assertEquals(List.of(new OffsetRanges.Span(500, 501)),
                OffsetRanges.of(sets.archivedNotInCommittedView, 10).listed());
        assertEquals(1, sets.deadLetteredAndArchived.size(), "300 is in file b as well as dead-lettered");
        assertEquals(10, sets.outsideRange);
    }

    /**
     * Retention that moves the log start while the audit reads the partition leaves the offsets it removed unread: in
     * the files, they are below the log start, not records Kafka's committed view leaves out (they read as aborted
     * records in files, and failed a right archive: a review).
     */
    @Test
    void offsetsRetentionRemovedDuringTheScanAreNotTakenForAbortedRecords() {
        KafkaPartition kafka = new KafkaPartition(0, 0, 0, 1_000, 1_000);
        kafka.logStartMoved(200); // the scan found 0..199 gone when it reached them
        kafka.present.addRange(200, 999);
        FoundPartition found = new FoundPartition();
        found.add("a", rows(0, 999));

        PartitionSets sets = new PartitionSets(kafka, new OffsetSet());
        sets.compare(found);

        assertEquals(0, sets.archivedNotInCommittedView.size());
        assertEquals(200, sets.belowLogStart.size());
        assertEquals(0, sets.missing.size());
    }

    @Test
    void reportedRangesStopAtTheListLimitButCountEverything() {
        OffsetSet everyFourth = new OffsetSet();
        for (long o = 0; o < 4_000; o += 4) {
            everyFourth.add(o);
        }
        OffsetRanges ranges = OffsetRanges.of(everyFourth, 3);
        assertEquals(1_000, ranges.offsets());
        assertEquals(1_000, ranges.runs());
        assertEquals(0, ranges.lowest());
        assertEquals(3_996, ranges.highest());
        assertEquals(3, ranges.listed().size());
        assertTrue(ranges.truncated());
        assertEquals("1,000 offsets in 1,000 ranges between 0 and 3996: 0, 4, 8, … (997 more ranges)",
                ReportText.ranges(ranges));
        assertTrue(OffsetRanges.of(new OffsetSet(), 3).isEmpty());
    }

    @Test
    void aRangeBelowTheLogStartExpectsNothing() {
        KafkaPartition kafka = new KafkaPartition(0, 10, 500, 900, 400);
        assertEquals(400, kafka.from);
        PartitionSets sets = new PartitionSets(kafka, new OffsetSet());
        FoundPartition found = new FoundPartition();
        found.add("a", rows(10, 399));
        sets.compare(found);
        assertEquals(0, sets.expected.size());
        assertEquals(0, sets.notInCommittedView);
        assertEquals(390, sets.belowLogStart.size());
        assertEquals(0, sets.outsideRange);
    }

    static FileRows.PartitionRows rows(long first, long last, long... again) {
        FileRows rows = new FileRows("t", java.util.Set.of(0));
        for (long o = first; o <= last; o++) {
            rows.row("t", 0, o);
        }
        for (long o : again) {
            rows.row("t", 0, o);
        }
        return rows.partitions.get(0);
    }
}
