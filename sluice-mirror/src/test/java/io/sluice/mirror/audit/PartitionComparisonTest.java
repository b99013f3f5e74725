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
 * test cannot make cheaply: gaps, copies out of order, records from elsewhere, retention and progress bounds, and the
 * rules for records compacted away on either side.
 */
class PartitionComparisonTest {

    private static final String SOURCE = "source-cluster";
    private static final String TARGET = "target-cluster";
    private static final long NOW = 1_000_000_000L;
    private static final long RETENTION = 60_000L;
    private static final CompactionPolicy COMPACTED = new CompactionPolicy(true, RETENTION);
    private static final CompactionPolicy NOT_COMPACTED = CompactionPolicy.NONE;

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

    @Test
    void aRecordTheCompactedTargetSupersededIsCompactedAwayThereAnOlderOneKeptIsMissing() {
        List<ConsumerRecord<byte[], byte[]>> source = List.of(keyed(0, "k1", "a"), keyed(1, "k1", "b"),
                keyed(2, "k2", "c"));
        List<ConsumerRecord<byte[], byte[]>> target = List.of(keyedCopy(0, 1, "k1", "b"), keyedCopy(1, 2, "k2", "c"));
        PartitionAudit audit = compare(0, 3, source, target, NOT_COMPACTED, COMPACTED);
        assertTrue(audit.clean(), () -> audit.firstDifference().orElseThrow());
        assertEquals(1, audit.compactedInTarget());
        assertEquals(0, audit.missing());
        assertEquals(audit.sourceHash(), audit.targetHash(), "records compacted away are left out of both hashes");

        PartitionAudit strict = compare(0, 3, source, target, COMPACTED, NOT_COMPACTED);
        assertEquals(1, strict.missing(), "only the target's own cleaner removes copies from it");
        assertEquals(0, strict.compactedInTarget());

        PartitionAudit olderKept = compare(0, 3, source, List.of(keyedCopy(0, 0, "k1", "a"),
                keyedCopy(1, 2, "k2", "c")), NOT_COMPACTED, COMPACTED);
        assertEquals(1, olderKept.missing(), "compaction keeps the last record of a key, never an older one");
        assertEquals(Optional.of("source offset 1 has no copy; the copies go on at source offset 2 (target offset 1)"),
                olderKept.firstDifference());
    }

    @Test
    void aCopyTheCompactedSourceSupersededIsCompactedAwayThereWithoutALaterRecordItIsNotInSource() {
        List<ConsumerRecord<byte[], byte[]>> target = List.of(keyedCopy(0, 0, "k1", "a"), keyedCopy(1, 1, "k1", "b"),
                keyedCopy(2, 2, "k2", "c"));
        List<ConsumerRecord<byte[], byte[]>> source = List.of(keyed(1, "k1", "b"), keyed(2, "k2", "c"));
        PartitionAudit audit = compare(0, 3, source, target, COMPACTED, NOT_COMPACTED);
        assertTrue(audit.clean(), () -> audit.firstDifference().orElseThrow());
        assertEquals(1, audit.compactedInSource());
        assertEquals(3, audit.copies());
        assertEquals(audit.sourceHash(), audit.targetHash());

        assertEquals(1, compare(0, 3, source, target, NOT_COMPACTED, COMPACTED).notInSource(),
                "only the source's own cleaner removes records from it");

        // the later record of the key is in the source, beyond the mirror's progress: still a superseding record
        PartitionAudit lagging = compare(0, 3, List.of(keyed(2, "k2", "c"), keyed(3, "k1", "d")),
                List.of(keyedCopy(0, 0, "k1", "a"), keyedCopy(1, 2, "k2", "c")), COMPACTED, NOT_COMPACTED);
        assertTrue(lagging.clean(), () -> lagging.firstDifference().orElseThrow());
        assertEquals(1, lagging.compactedInSource());

        PartitionAudit noLater = compare(0, 3, List.of(keyed(0, "k1", "a"), keyed(2, "k2", "c")),
                List.of(keyedCopy(0, 0, "k1", "a"), keyedCopy(1, 1, "k1", "b"), keyedCopy(2, 2, "k2", "c")),
                COMPACTED, NOT_COMPACTED);
        assertEquals(1, noLater.notInSource(), "the source keeps an older record of the key: not its cleaner's doing");
        assertEquals(Optional.of("target offset 1 is a copy of source offset 1, which the source does not hold "
                + "read_committed (an aborted record, a transaction marker, or compacted away)"),
                noLater.firstDifference());
    }

    @Test
    void aKeyWhoseTombstoneExpiredOnOneSideIsCompactedAwayThereOnlyOnceTheTombstoneIsOldEnough() {
        // the source removed k1's value and then, past delete.retention.ms, its tombstone
        List<ConsumerRecord<byte[], byte[]>> copies = List.of(keyedCopy(0, 0, "k1", "a"),
                tombstoneCopy(1, 1, "k1", NOW - RETENTION), keyedCopy(2, 2, "k2", "c"));
        PartitionAudit expired = compare(0, 3, List.of(keyed(2, "k2", "c")), copies, COMPACTED, NOT_COMPACTED);
        assertTrue(expired.clean(), () -> expired.firstDifference().orElseThrow());
        assertEquals(2, expired.compactedInSource());

        PartitionAudit fresh = compare(0, 3, List.of(keyed(2, "k2", "c")), List.of(keyedCopy(0, 0, "k1", "a"),
                tombstoneCopy(1, 1, "k1", NOW - RETENTION + 1), keyedCopy(2, 2, "k2", "c")), COMPACTED,
                NOT_COMPACTED);
        assertEquals(2, fresh.notInSource(), "a tombstone younger than delete.retention.ms cannot have expired");

        // the same in the target: it holds nothing of k1, whose last source record is an old tombstone
        List<ConsumerRecord<byte[], byte[]>> source = List.of(keyed(0, "k1", "a"), tombstone(1, "k1", NOW - RETENTION),
                keyed(2, "k2", "c"));
        PartitionAudit inTarget = compare(0, 3, source, List.of(keyedCopy(0, 2, "k2", "c")), NOT_COMPACTED,
                COMPACTED);
        assertTrue(inTarget.clean(), () -> inTarget.firstDifference().orElseThrow());
        assertEquals(2, inTarget.compactedInTarget());

        PartitionAudit notCopied = compare(0, 1, source, List.of(), NOT_COMPACTED, COMPACTED);
        assertEquals(1, notCopied.missing(), "a tombstone beyond the progress was never in the target to act on");
    }

    @Test
    void aLateCopyOfARecordTakenForCompactedAwayIsOutOfOrder() {
        List<ConsumerRecord<byte[], byte[]>> source = List.of(keyed(0, "k1", "a"), keyed(1, "k1", "b"));
        PartitionAudit audit = compare(0, 2, source, List.of(keyedCopy(0, 1, "k1", "b"), keyedCopy(1, 0, "k1", "a")),
                NOT_COMPACTED, COMPACTED);
        assertEquals(1, audit.outOfOrder());
        assertEquals(0, audit.compactedInTarget());
        assertEquals(0, audit.duplicates());
    }

    private static PartitionAudit compare(long logStart, long progress, List<ConsumerRecord<byte[], byte[]>> source,
            List<ConsumerRecord<byte[], byte[]>> target, CompactionPolicy sourcePolicy, CompactionPolicy targetPolicy) {
        Compaction compaction = new Compaction(sourcePolicy, targetPolicy, LatestKeys.ofSource(source.iterator()),
                LatestKeys.ofCopies(target.iterator(), SOURCE), progress, NOW);
        List<ConsumerRecord<byte[], byte[]>> inRange = source.stream().filter(r -> r.offset() < progress).toList();
        return new PartitionComparison("t", "t", 0, SOURCE, TARGET, logStart, progress, false, compaction)
                .compare(inRange.iterator(), target.iterator());
    }

    private static ConsumerRecord<byte[], byte[]> keyed(long offset, String key, String value) {
        return keyed(offset, key, bytes(value), 1_000L + offset, new RecordHeaders());
    }

    private static ConsumerRecord<byte[], byte[]> tombstone(long offset, String key, long timestamp) {
        return keyed(offset, key, null, timestamp, new RecordHeaders());
    }

    private static ConsumerRecord<byte[], byte[]> keyedCopy(long offset, long sourceOffset, String key, String value) {
        return keyed(offset, key, bytes(value), 1_000L + sourceOffset, new RecordHeaders()
                .add(Provenance.HEADER, Provenance.value(SOURCE, sourceOffset)));
    }

    private static ConsumerRecord<byte[], byte[]> tombstoneCopy(long offset, long sourceOffset, String key,
            long timestamp) {
        return keyed(offset, key, null, timestamp, new RecordHeaders()
                .add(Provenance.HEADER, Provenance.value(SOURCE, sourceOffset)));
    }

    private static ConsumerRecord<byte[], byte[]> keyed(long offset, String key, byte[] value, long timestamp,
            Headers headers) {
        return new ConsumerRecord<>("t", 0, offset, timestamp, TimestampType.CREATE_TIME, key.length(),
                value == null ? -1 : value.length, bytes(key), value, headers, Optional.empty());
    }

    private static PartitionAudit compare(long logStart, long progress, boolean beyondProgressAllowed,
            List<ConsumerRecord<byte[], byte[]>> source, List<ConsumerRecord<byte[], byte[]>> target) {
        return new PartitionComparison("t", "t", 0, SOURCE, TARGET, logStart, progress, beyondProgressAllowed,
                Compaction.NONE)
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
