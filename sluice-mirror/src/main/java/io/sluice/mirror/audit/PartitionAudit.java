package io.sluice.mirror.audit;

import java.util.Optional;

/**
 * What the audit found in one source partition and its target partition.
 *
 * @param sourceTopic the source topic
 * @param targetTopic its name in the target
 * @param partition the partition number, the same on both sides
 * @param sourceLogStart the source's first offset: copies of offsets below it are counted in
 *     {@code belowSourceLogStart}
 * @param progress the source offset the audit compares up to, not including
 * @param sourceRecords source records read (read_committed) from the log start up to the progress that must have a
 *     copy, including those compacted away in the target
 * @param notExpected source records not to be copied: their provenance names the target cluster (no loops)
 * @param copies target records that are copies of source records in the audited range
 * @param missing source records without a copy (and not compacted away in the target)
 * @param duplicates second (and further) copies of a source record
 * @param outOfOrder copies that came after the copy of a later source record
 * @param mismatches copies whose key, value, headers or timestamp differ from the source record's
 * @param notInSource copies of offsets the source does not hold read_committed (aborted, a marker, or gone from a
 *     compacted source without a later record of their key)
 * @param fromElsewhere target records not copied from the source cluster (local writes, other mirrors)
 * @param belowSourceLogStart copies of source records that retention removed from the source since
 * @param lostBeforeCopy offsets between the mirror's progress and the source's log start: retention removed them
 *     before the mirror copied them, so the target will never hold them (the mirror stops there, loudly)
 * @param beyondProgress copies of source offsets at or after the progress
 * @param beyondProgressAllowed whether such copies may exist (at least once) or are a difference (exactly once)
 * @param compactedInTarget source records without a copy that the target's cleaner removed: it holds a copy of a
 *     later record of their key, or their key's tombstone expired there (see {@link Compaction})
 * @param compactedInSource copies of source records that the source's cleaner removed since they were copied: it
 *     holds a later record of their key, or their key's tombstone expired there
 * @param sourceHash SHA-256 of the source records that must have a copy, in order (see {@link ContentHash}), without
 *     those compacted away in the target
 * @param targetHash SHA-256 of the copies, in target order, without their provenance header, and without those
 *     compacted away in the source
 * @param firstDifference the first difference in words, naming the source and the target offset; empty when clean
 */
public record PartitionAudit(String sourceTopic, String targetTopic, int partition, long sourceLogStart,
        long progress, long sourceRecords, long notExpected, long copies, long missing, long duplicates,
        long outOfOrder, long mismatches, long notInSource, long fromElsewhere, long belowSourceLogStart,
        long lostBeforeCopy, long beyondProgress, boolean beyondProgressAllowed, long compactedInTarget, long compactedInSource,
        String sourceHash, String targetHash,
        Optional<String> firstDifference) {

    /** Every source record in the range has exactly one copy, in order, equal to it. */
    public boolean clean() {
        return firstDifference.isEmpty();
    }

    /**
     * Not clean, but only because some source records have a second copy: every record has its first copy, in order
     * and unchanged, and nothing foreign was found. What an at-least-once mirror leaves after a restart re-sends its
     * last uncommitted window; a chaos run's reader of the report could not tell it from a loss by the verdict alone.
     */
    public boolean onlyDuplicates() {
        return !clean() && duplicates > 0 && missing == 0 && outOfOrder == 0 && mismatches == 0 && notInSource == 0
                && lostBeforeCopy == 0 && (beyondProgress == 0 || beyondProgressAllowed);
    }
}
