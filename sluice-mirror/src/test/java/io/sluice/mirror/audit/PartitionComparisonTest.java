package io.sluice.mirror.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.mirror.copy.Provenance;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;

/**
 * The pairing of copies with source records on records as the clusters return them, for the cases the two-cluster
 * test cannot make cheaply: gaps, copies out of order, records from elsewhere, retention and progress bounds.
 */
class PartitionComparisonTest {

    private static final String SOURCE = "source-cluster";
    private static final String TARGET = "target-cluster";

    @Test
    void copiesPairedAcrossOffsetGapsAreCleanAndRecordsOfOtherOriginsAreCountedApart() {
        // source offset 12 is a transaction marker: the copies' offsets differ from the source's from there on
        List<ConsumerRecord<byte[], byte[]>> source = List.of(original(10, "a"), original(11, "b"), original(13, "c"),
                cameBack(14, "d"));
        List<ConsumerRecord<byte[], byte[]>> target = List.of(copy(0, 3, "z"), copy(1, 10, "a"), local(2, "x"),
                copy(3, 11, "b"), copy(4, 13, "c"));
        PartitionAudit audit = compare(10, 15, true, source, target);
        assertTrue(audit.clean(), () -> audit.firstDifference().orElseThrow());
        assertEquals(3, audit.sourceRecords());
        assertEquals(3, audit.copies());
        assertEquals(1, audit.notExpected(), "the record that came from the target is not copied back");
        assertEquals(1, audit.fromElsewhere());
        assertEquals(1, audit.belowSourceLogStart());
        assertEquals(audit.sourceHash(), audit.targetHash());
    }

    @Test
    void aLateCopyIsOutOfOrderNotMissingAndASecondCopyIsADuplicate() {
        List<ConsumerRecord<byte[], byte[]>> source = List.of(original(0, "a"), original(1, "b"), original(2, "c"));
        PartitionAudit late = compare(0, 3, false, source, List.of(copy(0, 0, "a"), copy(1, 2, "c"), copy(2, 1, "b")));
        assertEquals(1, late.outOfOrder());
        assertEquals(0, late.missing());
        assertEquals(Optional.of("target offset 2 is a copy of source offset 1 that comes after the copy of source "
                + "offset 2 (target offset 1): out of order"), late.firstDifference());
        assertNotEquals(late.sourceHash(), late.targetHash(), "the hash is over the records in order");

        PartitionAudit twice = compare(0, 3, false, source, List.of(copy(0, 0, "a"), copy(1, 1, "b"), copy(2, 2, "c"),
                copy(3, 1, "b"), copy(4, 3, "d")));
        assertEquals(1, twice.duplicates());
        assertEquals(1, twice.beyondProgress());
        assertEquals(Optional.of("target offset 3 is a second copy of source offset 1"), twice.firstDifference());
    }

    @Test
    void missingCopiesAtTheEndAndADifferentHeaderAreNamed() {
        List<ConsumerRecord<byte[], byte[]>> source = List.of(original(0, "a"), original(1, "b"), original(2, "c"));
        ConsumerRecord<byte[], byte[]> changed = copy(1, 1, "b");
        changed.headers().remove(Provenance.HEADER);
        changed.headers().add("h", bytes("other")).add(Provenance.HEADER, Provenance.value(SOURCE, 1));
        PartitionAudit audit = compare(0, 3, true, source, List.of(copy(0, 0, "a"), changed));
        assertFalse(audit.clean());
        assertEquals(1, audit.mismatches());
        assertEquals(1, audit.missing());
        assertEquals(Optional.of("source offset 1 (target offset 1): the headers differ"), audit.firstDifference());

        PartitionAudit none = compare(0, 3, true, source, List.of());
        assertEquals(3, none.missing());
        assertEquals(Optional.of("source offset 0 has no copy; the target holds no copy of this partition's records"),
                none.firstDifference());
    }

    private static PartitionAudit compare(long logStart, long progress, boolean beyondProgressAllowed,
            List<ConsumerRecord<byte[], byte[]>> source, List<ConsumerRecord<byte[], byte[]>> target) {
        return new PartitionComparison("t", "t", 0, SOURCE, TARGET, logStart, progress, beyondProgressAllowed)
                .compare(source.iterator(), target.iterator());
    }

    private static ConsumerRecord<byte[], byte[]> original(long offset, String value) {
        return record(offset, value, new RecordHeaders().add("h", bytes("h" + value)));
    }

    /** A source record a mirror copied from the target earlier. */
    private static ConsumerRecord<byte[], byte[]> cameBack(long offset, String value) {
        return record(offset, value, new RecordHeaders().add("h", bytes("h" + value))
                .add(Provenance.HEADER, Provenance.value(TARGET, 7)));
    }

    private static ConsumerRecord<byte[], byte[]> copy(long offset, long sourceOffset, String value) {
        return record(offset, value, new RecordHeaders().add("h", bytes("h" + value))
                .add(Provenance.HEADER, Provenance.value(SOURCE, sourceOffset)));
    }

    private static ConsumerRecord<byte[], byte[]> local(long offset, String value) {
        return record(offset, value, new RecordHeaders());
    }

    private static ConsumerRecord<byte[], byte[]> record(long offset, String value, Headers headers) {
        return new ConsumerRecord<>("t", 0, offset, 1_000L + value.hashCode(), TimestampType.CREATE_TIME, 1,
                value.length(), bytes("k" + value), bytes(value), headers, Optional.empty());
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
