package io.sluice.mirror.audit;

import io.sluice.mirror.copy.Provenance;
import java.util.Iterator;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Compares one source partition with its target partition in a single pass over both, in offset order: each copy is
 * paired with a source record by its last provenance hop. Only the current record of each side is held, plus the
 * runs of missing source offsets ({@link MissingRuns}), so that partitions of any size fit in memory.
 *
 * <p>A copy of a source offset above the last one paired skips over the source records between them: those have no
 * copy (yet). A copy of an offset at or below the last one paired is a late copy of a skipped record (out of order) or
 * a second copy (duplicate).
 *
 * <p>Threading: one thread; one {@link #compare} per instance.
 */
final class PartitionComparison {

    private final String sourceTopic;
    private final String targetTopic;
    private final int partition;
    private final String sourceCluster;
    private final String targetCluster;
    private final long sourceLogStart;
    private final long progress;
    private final boolean beyondProgressAllowed;

    private final ContentHash sourceHash = new ContentHash();
    private final ContentHash targetHash = new ContentHash();
    private final MissingRuns missingRuns = new MissingRuns();
    private Iterator<ConsumerRecord<byte[], byte[]>> source;
    private ConsumerRecord<byte[], byte[]> nextSource;
    private long lastPaired = -1;
    private long lastPairedAt = -1;
    private String firstDifference;
    /** The source offset the first difference says has no copy: a late copy of it makes it out of order instead. */
    private long firstDifferenceMissing = -1;
    private long sourceRecords;
    private long notExpected;
    private long copies;
    private long missing;
    private long duplicates;
    private long outOfOrder;
    private long mismatches;
    private long notInSource;
    private long fromElsewhere;
    private long belowSourceLogStart;
    private long beyondProgress;

    /**
     * A comparison of {@code partition} of {@code sourceTopic} (in {@code sourceCluster}, from {@code sourceLogStart}
     * up to {@code progress}) with the same partition of {@code targetTopic} in {@code targetCluster}.
     */
    PartitionComparison(String sourceTopic, String targetTopic, int partition, String sourceCluster,
            String targetCluster, long sourceLogStart, long progress, boolean beyondProgressAllowed) {
        this.sourceTopic = sourceTopic;
        this.targetTopic = targetTopic;
        this.partition = partition;
        this.sourceCluster = sourceCluster;
        this.targetCluster = targetCluster;
        this.sourceLogStart = sourceLogStart;
        this.progress = progress;
        this.beyondProgressAllowed = beyondProgressAllowed;
    }

    /**
     * Walks {@code sourceRecords} (the source partition read_committed from its log start up to the progress) and
     * {@code targetRecords} (the target partition read_committed) to their ends.
     */
    PartitionAudit compare(Iterator<ConsumerRecord<byte[], byte[]>> sourceRecords,
            Iterator<ConsumerRecord<byte[], byte[]>> targetRecords) {
        this.source = sourceRecords;
        advanceSource();
        while (targetRecords.hasNext()) {
            ConsumerRecord<byte[], byte[]> record = targetRecords.next();
            copyOf(record).ifPresent(offset -> pair(record, offset));
        }
        while (nextSource != null) {
            missingRun(nextSource.offset(), lastPaired < 0
                    ? "the target holds no copy of this partition's records"
                    : "the copies end at source offset " + lastPaired + " (target offset " + lastPairedAt + ")");
            advanceSource();
        }
        return new PartitionAudit(sourceTopic, targetTopic, partition, sourceLogStart, progress, this.sourceRecords,
                notExpected, copies, missing, duplicates, outOfOrder, mismatches, notInSource, fromElsewhere,
                belowSourceLogStart, beyondProgress, beyondProgressAllowed, sourceHash.hex(), targetHash.hex(),
                Optional.ofNullable(firstDifference));
    }

    /** The source offset a target record is a copy of, when it is one in the audited range; counts it otherwise. */
    private Optional<Long> copyOf(ConsumerRecord<byte[], byte[]> record) {
        Optional<Provenance.Hop> hop;
        try {
            hop = Provenance.lastHop(record.headers());
        } catch (IllegalArgumentException e) {
            hop = Optional.empty(); // not a mirror's header: someone else wrote the record
        }
        if (hop.isEmpty() || !hop.get().clusterId().equals(sourceCluster)) {
            fromElsewhere++;
            return Optional.empty();
        }
        long offset = hop.get().offset();
        if (offset < sourceLogStart) {
            belowSourceLogStart++;
            return Optional.empty();
        }
        if (offset >= progress) {
            beyondProgress++;
            if (!beyondProgressAllowed) {
                difference("target offset " + record.offset() + " is a copy of source offset " + offset
                        + ", beyond the progress (source offset " + progress + "): exactly once, a read_committed "
                        + "reader must not see it");
            }
            return Optional.empty();
        }
        copies++;
        targetHash.add(record.key(), record.value(), RecordContent.ofCopy(record), record.timestamp());
        return Optional.of(offset);
    }

    private void pair(ConsumerRecord<byte[], byte[]> copy, long offset) {
        if (offset <= lastPaired) {
            if (missingRuns.remove(offset)) {
                missing--;
                outOfOrder++;
                if (offset == firstDifferenceMissing) {
                    firstDifference = null;
                }
                difference("target offset " + copy.offset() + " is a copy of source offset " + offset
                        + " that comes after the copy of source offset " + lastPaired + " (target offset "
                        + lastPairedAt + "): out of order");
            } else {
                duplicates++;
                difference("target offset " + copy.offset() + " is a second copy of source offset " + offset);
            }
            return;
        }
        while (nextSource != null && nextSource.offset() < offset) {
            missingRun(nextSource.offset(), "the copies go on at source offset " + offset + " (target offset "
                    + copy.offset() + ")");
            advanceSource();
        }
        if (nextSource == null || nextSource.offset() != offset) {
            notInSource++;
            difference("target offset " + copy.offset() + " is a copy of source offset " + offset + ", which the "
                    + "source does not hold read_committed (an aborted record, a transaction marker, or compacted "
                    + "away)");
            return;
        }
        ConsumerRecord<byte[], byte[]> original = nextSource;
        RecordContent.difference(original, copy).ifPresent(what -> {
            mismatches++;
            difference("source offset " + offset + " (target offset " + copy.offset() + "): " + what);
        });
        lastPaired = offset;
        lastPairedAt = copy.offset();
        missingRuns.interrupt();
        advanceSource();
    }

    private void missingRun(long offset, String whereTheCopiesAre) {
        missing++;
        missingRuns.add(offset);
        if (firstDifference == null) {
            firstDifferenceMissing = offset;
        }
        difference("source offset " + offset + " has no copy; " + whereTheCopiesAre);
    }

    /** Moves to the next source record that must have a copy; records that came from the target need none. */
    private void advanceSource() {
        nextSource = null;
        while (source.hasNext()) {
            ConsumerRecord<byte[], byte[]> r = source.next();
            if (Provenance.cameFrom(r.headers(), targetCluster)) {
                notExpected++;
            } else {
                sourceRecords++;
                sourceHash.add(r.key(), r.value(), RecordContent.ofSource(r), r.timestamp());
                nextSource = r;
                return;
            }
        }
    }

    private void difference(String words) {
        if (firstDifference == null) {
            firstDifference = words;
        }
    }
}
