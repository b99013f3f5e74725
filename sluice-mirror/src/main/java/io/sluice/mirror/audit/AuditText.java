package io.sluice.mirror.audit;

import io.sluice.mirror.MirrorDelivery;
import java.util.Locale;

/**
 * The report for a person: the verdict first, then one block per partition with its counts, its hashes and its first
 * difference. Counts that are zero and say nothing unusual are left out.
 *
 * <p>Stateless.
 */
final class AuditText {

    private AuditText() {
    }

    static String render(MirrorAuditReport r) {
        StringBuilder b = new StringBuilder();
        long unclean = r.partitions().stream().filter(p -> !p.clean()).count();
        b.append("Mirror ").append(r.mirror()).append(" (")
                .append(r.delivery() == MirrorDelivery.EXACTLY_ONCE ? "exactly once" : "at least once").append("): ")
                .append(r.unverified() ? "NOT VERIFIED: the mirror has committed no progress for partitions that "
                        + "hold records, or their target partitions are missing (the notes say which), so nothing of "
                        + "them counts as copied: check mirror.name (has it run under this name?), or verify after "
                        + "its first commit of them"
                        : r.clean() ? "CLEAN: the target holds every committed source record exactly once, in order"
                        : r.onlyDuplicates() ? onlyDuplicates(r, unclean)
                        : "DIFFERENCES in " + unclean + " of " + r.partitions().size() + " partitions")
                .append('\n');
        b.append("source cluster ").append(r.sourceCluster()).append(", target cluster ").append(r.targetCluster())
                .append("; compared up to ").append(r.untilSourceEnd() ? "the source's end" : "the mirror's progress")
                .append("; took ").append(r.tookMillis()).append(" ms\n");
        for (PartitionAudit p : r.partitions()) {
            partition(b, p);
        }
        for (String note : r.notes()) {
            b.append("note: ").append(note).append('\n');
        }
        return b.toString();
    }

    /**
     * The verdict when nothing is missing: an at-least-once mirror's re-sent window after a restart is expected, and a
     * reader must not take it for a loss (a chaos run's headline said only DIFFERENCES).
     */
    private static String onlyDuplicates(MirrorAuditReport r, long unclean) {
        long copies = r.partitions().stream().mapToLong(PartitionAudit::duplicates).sum() + r.strayCopies();
        String where = unclean == 0 ? "" : String.format(Locale.ROOT, " in %d of %d partitions", unclean,
                r.partitions().size());
        String strays = r.strayCopies() == 0 ? "" : String.format(Locale.ROOT, " (%,d in target partitions no source "
                + "partition is copied to)", r.strayCopies());
        return String.format(Locale.ROOT, "DUPLICATES ONLY%s: every committed source record has its copy, in order and "
                + "unchanged, and %,d %s a second copy%s, ", where, copies, copies == 1 ? "has" : "have", strays)
                + (r.delivery() == MirrorDelivery.AT_LEAST_ONCE
                        ? "as at-least-once delivery leaves after a restart (exactly-once delivery leaves none)"
                        : "which exactly-once delivery never writes: something else wrote them (the first "
                                + "difference of each partition names one" + (r.strayCopies() == 0 ? ")"
                                : ", and the notes the partitions no source partition is copied to)"));
    }

    private static void partition(StringBuilder b, PartitionAudit p) {
        b.append('\n').append(p.sourceTopic()).append('-').append(p.partition());
        if (!p.targetTopic().equals(p.sourceTopic())) {
            b.append(" -> ").append(p.targetTopic()).append('-').append(p.partition());
        }
        b.append(": ").append(p.clean() ? "clean" : p.onlyDuplicates() ? "DUPLICATES" : "DIFFERENT").append('\n');
        if (p.lostBeforeCopy() > 0) {
            b.append("  source offsets ").append(p.progress()).append(" up to ").append(p.sourceLogStart())
                    // the log's start moves by retention or by a delete-records request ("by retention" alone misled
                    // of the second: a chaos run)
                    .append(": removed (by retention or a delete-records request) before the mirror copied them, ")
                    .append(p.lostBeforeCopy())
                    .append(" offsets lost; ").append(p.copies()).append(" copies\n");
        } else {
            b.append("  source offsets ").append(p.sourceLogStart()).append(" up to ").append(p.progress())
                    .append(": ").append(p.sourceRecords()).append(" records to copy, ").append(p.copies())
                    .append(" copies\n");
        }
        StringBuilder counts = new StringBuilder();
        count(counts, p.missing(), "missing");
        count(counts, p.duplicates(), "duplicates");
        count(counts, p.outOfOrder(), "out of order");
        count(counts, p.mismatches(), "mismatches");
        count(counts, p.notInSource(), "copies of offsets the source does not hold");
        count(counts, p.beyondProgress(), "copies beyond the progress" + (p.beyondProgressAllowed()
                ? " (allowed at least once)" : ""));
        count(counts, p.compactedInTarget(), "source records compacted away in the target");
        count(counts, p.compactedInSource(), "copies of records compacted away in the source");
        count(counts, p.notExpected(), "source records that came from the target (not copied back)");
        count(counts, p.fromElsewhere(), "target records not copied from the source");
        count(counts, p.belowSourceLogStart(), "copies of records the source's retention removed since");
        if (counts.length() > 0) {
            b.append("  ").append(counts).append('\n');
        }
        b.append("  sha256 source ").append(p.sourceHash(), 0, 16).append("…, target ").append(p.targetHash(), 0, 16)
                .append("… ").append(p.sourceHash().equals(p.targetHash()) ? "(equal)" : "(differ)").append('\n');
        p.firstDifference().ifPresent(d -> b.append("  first difference: ").append(d).append('\n'));
    }

    private static void count(StringBuilder b, long n, String what) {
        if (n != 0) {
            b.append(b.length() == 0 ? "" : ", ").append(what).append(": ").append(n);
        }
    }
}
