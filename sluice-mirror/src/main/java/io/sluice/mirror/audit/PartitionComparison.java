package io.sluice.mirror.audit;

import io.sluice.mirror.copy.Provenance;
import java.util.Iterator;
import java.util.Optional;
import java.util.OptionalLong;
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
 * <p>When the source or the target topic is compacted, a record one side no longer holds may have been compacted away
 * there: {@link Compaction} decides, exactly, and such records are counted apart and left out of both hashes (so that
 * a clean compacted partition still has equal hashes). A non-compacted partition keeps the strict rules.
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
    private final Compaction compaction;

    private final ContentHash sourceHash = new ContentHash();
    private final ContentHash targetHash = new ContentHash();
    private final MissingRuns missingRuns = new MissingRuns();
    /** Source offsets without a copy that the target compacted away: a late copy of one is out of order too. */
    private final MissingRuns compactedRuns = new MissingRuns();
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
    private long compactedInTarget;
    private long compactedInSource;

    /**
     * A comparison of {@code partition} of {@code sourceTopic} (in {@code sourceCluster}, from {@code sourceLogStart}
     * up to {@code progress}) with the same partition of {@code targetTopic} in {@code targetCluster}, by the rules of
     * {@code compaction} for records one side no longer holds.
     */
    PartitionComparison(String sourceTopic, String targetTopic, int partition, String sourceCluster,
            String targetCluster, long sourceLogStart, long progress, boolean beyondProgressAllowed,
            Compaction compaction) {
        this.sourceTopic = sourceTopic;
        this.targetTopic = targetTopic;
        this.partition = partition;
        this.sourceCluster = sourceCluster;
        this.targetCluster = targetCluster;
        this.sourceLogStart = sourceLogStart;
        this.progress = progress;
        this.beyondProgressAllowed = beyondProgressAllowed;
        this.compaction = compaction;
    }

    /**
     * Walks {@code sourceRecords} (the source partition read_committed from its log start up to the progress) and
     * {@code targetRecords} (the target partition read_committed) to their ends.
     */
    PartitionAudit compare(Iterator<ConsumerRecord<byte[], byte[]>> sourceRecords,
            Iterator<ConsumerRecord<byte[], byte[]>> targetRecords) {
        this.source = sourceRecords;
        if (lostBeforeCopy() > 0) {
            difference("the source's retention removed offsets " + progress + " up to " + sourceLogStart + " before "
                    + "the mirror copied them: those " + lostBeforeCopy() + " offsets are lost to the target");
        }
        advanceSource();
        while (targetRecords.hasNext()) {
            ConsumerRecord<byte[], byte[]> record = targetRecords.next();
            copyOf(record).ifPresent(offset -> pair(record, offset));
        }
        while (nextSource != null) {
            noCopy(nextSource, lastPaired < 0
                    ? "the target holds no copy of this partition's records"
                    : "the copies end at source offset " + lastPaired + " (target offset " + lastPairedAt + ")");
            advanceSource();
        }
        return new PartitionAudit(sourceTopic, targetTopic, partition, sourceLogStart, progress, this.sourceRecords,
                notExpected, copies, missing, duplicates, outOfOrder, mismatches, notInSource, fromElsewhere,
                belowSourceLogStart, lostBeforeCopy(), beyondProgress, beyondProgressAllowed, compactedInTarget, compactedInSource,
                sourceHash.hex(), targetHash.hex(), Optional.ofNullable(firstDifference));
    }

    /** Offsets from the progress up to the log start: gone from the source before the mirror copied them. */
    private long lostBeforeCopy() {
        return Math.max(0, sourceLogStart - progress);
    }

    /** The source offset a target record is a copy of, when it is one in the audited range; counts it otherwise. */
    private Optional<Long> copyOf(ConsumerRecord<byte[], byte[]> record) {
        OptionalLong copied = copiedFrom(record, sourceCluster);
        if (copied.isEmpty()) {
            fromElsewhere++;
            return Optional.empty();
        }
        long offset = copied.getAsLong();
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
        return Optional.of(offset);
    }

    /** The source offset {@code record} is a copy of, when its last hop names {@code sourceCluster}. */
    static OptionalLong copiedFrom(ConsumerRecord<byte[], byte[]> record, String sourceCluster) {
        Optional<Provenance.Hop> hop;
        try {
            hop = Provenance.lastHop(record.headers());
        } catch (IllegalArgumentException e) {
            hop = Optional.empty(); // not a mirror's header: someone else wrote the record
        }
        return hop.isPresent() && hop.get().clusterId().equals(sourceCluster) ? OptionalLong.of(hop.get().offset())
                : OptionalLong.empty();
    }

    private void pair(ConsumerRecord<byte[], byte[]> copy, long offset) {
        if (offset <= lastPaired) {
            hashCopy(copy);
            boolean wasMissing = missingRuns.remove(offset);
            if (wasMissing || compactedRuns.remove(offset)) {
                if (wasMissing) {
                    missing--;
                } else {
                    compactedInTarget--;
                }
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
            noCopy(nextSource, "the copies go on at source offset " + offset + " (target offset "
                    + copy.offset() + ")");
            advanceSource();
        }
        if (nextSource == null || nextSource.offset() != offset) {
            if (compaction.awayInSource(copy, offset)) {
                compactedInSource++;
                return;
            }
            hashCopy(copy);
            notInSource++;
            difference("target offset " + copy.offset() + " is a copy of source offset " + offset + ", which the "
                    + "source does not hold read_committed " + (compaction.deletedBeforeCopied(copy)
                            ? "nor any record of its key: the key was deleted, and the source's cleaner removed the "
                            + "tombstone (delete.retention.ms after cleaning it) before the mirror copied it, so the "
                            + "target still holds the key. Write a tombstone of the key to the target, and keep the "
                            + "mirror less than delete.retention.ms behind"
                            : "(an aborted record, a transaction marker, or compacted away)"));
            return;
        }
        ConsumerRecord<byte[], byte[]> original = nextSource;
        hashCopy(copy, RecordContent.comparedTimestamp(original, copy));
        hashSource(original);
        RecordContent.difference(original, copy).ifPresent(what -> {
            mismatches++;
            difference("source offset " + offset + " (target offset " + copy.offset() + "): " + what);
        });
        lastPaired = offset;
        lastPairedAt = copy.offset();
        missingRuns.interrupt();
        compactedRuns.interrupt();
        advanceSource();
    }

    /** {@code record} has no copy: compacted away in the target, or missing. */
    private void noCopy(ConsumerRecord<byte[], byte[]> record, String whereTheCopiesAre) {
        long offset = record.offset();
        if (compaction.awayInTarget(record)) {
            compactedInTarget++;
            compactedRuns.add(offset);
            missingRuns.interrupt();
            return;
        }
        hashSource(record);
        missing++;
        missingRuns.add(offset);
        compactedRuns.interrupt();
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
                nextSource = r;
                return;
            }
        }
    }

    /*
     * The source side is hashed as its records are paired or found missing (both in source order), not when read,
     * since only then is it known whether the target compacted the record away.
     */
    private void hashSource(ConsumerRecord<byte[], byte[]> r) {
        sourceHash.add(r.key(), r.value(), RecordContent.ofSource(r), r.timestamp());
    }

    private void hashCopy(ConsumerRecord<byte[], byte[]> copy) {
        hashCopy(copy, copy.timestamp());
    }

    /** With the timestamp it is compared by: its source's, when the source had none to copy. */
    private void hashCopy(ConsumerRecord<byte[], byte[]> copy, long timestamp) {
        targetHash.add(copy.key(), copy.value(), RecordContent.ofCopy(copy), timestamp);
    }

    private void difference(String words) {
        if (firstDifference == null) {
            firstDifference = words;
        }
    }
}
