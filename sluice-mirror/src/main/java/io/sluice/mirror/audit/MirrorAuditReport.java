package io.sluice.mirror.audit;

import io.sluice.mirror.MirrorDelivery;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The audit's answer: per partition what was found ({@link PartitionAudit}), and the verdict, clean only when every
 * partition is.
 *
 * @param mirror the mirror's name
 * @param delivery what the mirror promises
 * @param untilSourceEnd whether the audit compared up to the source's end rather than the mirror's progress
 * @param sourceCluster the source's cluster ID
 * @param targetCluster the target's cluster ID
 * @param startedAt when the audit started
 * @param tookMillis how long it took
 * @param partitions every audited partition, by topic and partition
 * @param notes what the reader should know beyond the counts (partitions without progress, target topics missing)
 * @param unverified a partition that holds records has no progress committed, or no target partition: nothing of it
 *     counts as copied, so "clean" would only say that nothing of it was compared (a mirror that never ran, a typo in
 *     its name, a partition added since, progress expired)
 * @param strayCopies copies of source records found in target partitions that no source partition is copied to (the
 *     target topic has more partitions than the source): second copies (the notes say where)
 */
public record MirrorAuditReport(String mirror, MirrorDelivery delivery, boolean untilSourceEnd, String sourceCluster,
        String targetCluster, Instant startedAt, long tookMillis, List<PartitionAudit> partitions,
        List<String> notes, boolean unverified, long strayCopies) {

    public MirrorAuditReport {
        partitions = List.copyOf(partitions);
        notes = List.copyOf(notes);
    }

    /** Whether the target holds every committed source record of the audited ranges exactly once, in order. */
    public boolean clean() {
        return strayCopies == 0 && partitions.stream().allMatch(PartitionAudit::clean);
    }

    /**
     * Not clean, yet every partition is clean or differs only by second copies ({@link PartitionAudit#onlyDuplicates}),
     * and stray copies are second copies too: nothing is missing. Still exit status 1, as the target does not hold each record exactly once.
     */
    public boolean onlyDuplicates() {
        return !clean() && partitions.stream().allMatch(p -> p.clean() || p.onlyDuplicates());
    }

    /** The process exit status of {@code sluice verify}: 0 only when clean, and something was compared. */
    public int exitStatus() {
        return clean() && !unverified ? 0 : 1;
    }

    /** The first partition with a difference, if any. */
    public Optional<PartitionAudit> firstUnclean() {
        return partitions.stream().filter(p -> !p.clean()).findFirst();
    }

    /** The partition {@code partition} of {@code sourceTopic}. */
    public Optional<PartitionAudit> partition(String sourceTopic, int partition) {
        return partitions.stream().filter(p -> p.sourceTopic().equals(sourceTopic) && p.partition() == partition)
                .findFirst();
    }

    /** The report for a person. */
    public String toText() {
        return AuditText.render(this);
    }

    /** The report as one JSON object. */
    public String toJson() {
        return AuditJson.render(this);
    }
}
