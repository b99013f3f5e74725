package io.sluice.audit;

import java.util.List;

/**
 * What the audit found for one partition.
 *
 * <p>The expected set is Kafka's read_committed view of {@code [from, until)} minus the dead-lettered records;
 * {@code exactlyOnce + missing.offsets() + duplicated.offsets() = expected}. Everything under "archived" is
 * information about rows in files for offsets that are not expected.
 *
 * <p>Threading: immutable.
 *
 * @param logStartOffset           Kafka's first offset of the partition (retention, deleteRecords move it)
 * @param lastStableOffset         the last stable offset when the audit started
 * @param from                     the first audited offset
 * @param until                    the end of the audited range (not included)
 * @param inKafka                  records Kafka returned read_committed in the range
 * @param notInCommittedView       offsets of the range Kafka did not return: transaction markers, aborted
 *                                 transactions, records removed by compaction
 * @param deadLettered             records of the range found in the dead-letter topic (not expected)
 * @param deadLetters              the first of them, with the reason
 * @param expected                 records that must each be in exactly one file
 * @param exactlyOnce              expected records found in exactly one file
 * @param missing                  expected records found in no file
 * @param missingNotYetCommitted   of the missing, those at or above the group's committed offset: not archived yet
 * @param missingFiles             files that manifests name for missing offsets and that are not visible
 * @param duplicated               expected records found in more than one file (or twice in one)
 * @param duplicates               where the duplicated records are: runs of offsets with the files holding them
 * @param archivedBelowLogStart    offsets in files that Kafka no longer has (retention, deleteRecords)
 * @param archivedNotInCommittedView offsets in files, in the range, that Kafka does not return read_committed, of a
 *                                 compacted topic (compacted away in Kafka after they were archived)
 * @param archivedAborted          offsets in files, in the range, that Kafka does not return read_committed, of a topic
 *                                 that is not compacted: records of aborted transactions (or markers), which a reader
 *                                 of the files must not see; a problem
 * @param archivedOutsideRange     rows in files for offsets before or after the audited range
 * @param deadLetteredAndArchived  dead-lettered records that are in a file as well
 * @param files                    readable files holding rows of this partition
 * @param rows                     rows of this partition in those files
 * @param groupCommit              the group's commit for this partition, when a group was given, else null
 * @param staged                   files staged for this partition and not visible
 * @param notes                    anything else the reader should know
 */
public record PartitionReport(
        int partition,
        long logStartOffset,
        long lastStableOffset,
        long from,
        long until,
        long inKafka,
        long notInCommittedView,
        long deadLettered,
        List<AuditReport.DeadLetter> deadLetters,
        long expected,
        long exactlyOnce,
        OffsetRanges missing,
        long missingNotYetCommitted,
        List<AuditReport.MissingFile> missingFiles,
        OffsetRanges duplicated,
        List<AuditReport.DuplicateRun> duplicates,
        OffsetRanges archivedBelowLogStart,
        OffsetRanges archivedNotInCommittedView,
        OffsetRanges archivedAborted,
        long archivedOutsideRange,
        OffsetRanges deadLetteredAndArchived,
        long files,
        long rows,
        AuditReport.GroupCommit groupCommit,
        AuditReport.Staged staged,
        List<String> notes) {

    /**
     * Every expected offset appears exactly once, no aborted record is in a file, and the group's commit (if checked)
     * is sound.
     */
    public boolean clean() {
        return missing.isEmpty() && duplicated.isEmpty() && archivedAborted.isEmpty()
                && (groupCommit == null || !groupCommit.status().problem());
    }
}
