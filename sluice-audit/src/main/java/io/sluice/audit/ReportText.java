package io.sluice.audit;

import io.sluice.audit.AuditReport.CommitStatus;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The audit report for people, written for someone after an incident: the verdict on the first line, then each
 * partition (what Kafka expects, what is wrong, where), the files that are not usable, and what to do about each kind
 * of problem found.
 *
 * <p>Threading: stateless.
 */
final class ReportText {

    private ReportText() {
    }

    static String summary(AuditReport r) {
        if (r.clean()) {
            return "OK: every expected offset of " + r.topic() + " appears exactly once in " + r.storage() + " ("
                    + n(r.expected()) + " offsets in " + plural(r.partitions().size(), "partition") + ", "
                    + plural(r.filesRead(), "file") + " read)";
        }
        List<String> wrong = new ArrayList<>();
        if (r.missing() > 0) {
            // the offsets not committed yet are the archiver's to come; the others are what is really gone
            long notYet = r.partitions().stream().mapToLong(PartitionReport::missingNotYetCommitted).sum();
            long gone = r.missing() - notYet;
            if (gone > 0) {
                wrong.add(n(gone) + " missing");
            }
            if (notYet > 0) {
                wrong.add(n(notYet) + " not archived yet (at or above the group's committed offset)");
            }
        }
        if (r.duplicated() > 0) {
            wrong.add(n(r.duplicated()) + " duplicated");
        }
        String offsets = wrong.isEmpty() ? "" : "of " + n(r.expected()) + " expected offsets, " + String.join(", ", wrong);
        List<String> more = new ArrayList<>();
        long aborted = r.partitions().stream().mapToLong(p -> p.archivedAborted().offsets()).sum();
        if (aborted > 0) {
            more.add(plural(aborted, "aborted record") + " in files");
        }
        if (r.unreadableFiles() > 0) {
            more.add(plural(r.unreadableFiles(), "unreadable file"));
        }
        if (r.strangeFiles() > 0) {
            more.add(plural(r.strangeFiles(), "stranger"));
        }
        if (r.unnamedFiles() > 0) {
            more.add(plural(r.unnamedFiles(), "unnamed file"));
        }
        long badCommits = r.partitions().stream()
                .filter(p -> p.groupCommit() != null && p.groupCommit().status().problem()).count();
        if (badCommits > 0) {
            more.add(plural(badCommits, "partition") + " whose committed manifest is unsound");
        }
        if (!r.earlierTopicIds().isEmpty()) {
            more.add("files of an earlier topic of the same name make the result untrustworthy");
        }
        String rest = String.join(", ", more);
        return "PROBLEMS: " + r.topic() + " in " + r.storage() + ": " + offsets
                + (offsets.isEmpty() || rest.isEmpty() ? "" : "; ") + rest + " (exit status " + r.exitStatus() + ")";
    }

    static String render(AuditReport r) {
        StringBuilder out = new StringBuilder();
        out.append(summary(r)).append("\n\n");
        out.append("Topic ").append(r.topic()).append(" (ID ").append(r.topicId()).append("), ")
                .append(plural(r.partitions().size(), "partition")).append(" audited; archive ").append(r.storage())
                .append('\n');
        out.append("Expected: the records Kafka returns read_committed in each partition's range (by default from the log "
                + "start to the last stable offset at ").append(r.startedAt().truncatedTo(ChronoUnit.SECONDS)).append(")");
        out.append(r.deadLetterTopic() == null ? ", no dead-letter topic given" : ", minus those in the dead-letter topic "
                + r.deadLetterTopic());
        out.append(r.groupId() == null ? "; no group given, so committed manifests were not checked"
                : "; the commits of group " + r.groupId() + " were checked").append('\n');
        out.append("Files: ").append(n(r.visibleFiles())).append(" visible, ").append(n(r.filesRead()))
                .append(" read (").append(n(r.rowsRead())).append(" rows), ").append(n(r.unreadableFiles()))
                .append(" unreadable, ").append(plural(r.strangeFiles(), "stranger")).append(", ")
                .append(n(r.unnamedFiles())).append(" unnamed");
        if (r.otherTopicFiles() > 0) {
            long ofTopics = r.otherTopics().values().stream().mapToLong(Long::longValue).sum();
            out.append(", ").append(n(r.otherTopicFiles())).append(" skipped");
            List<String> skipped = new ArrayList<>();
            if (ofTopics > 0) {
                skipped.add("other topics: " + r.otherTopics().entrySet().stream()
                        .map(e -> e.getKey() + " " + n(e.getValue())).collect(Collectors.joining(", ")));
            }
            if (r.otherTopicFiles() > ofTopics) {
                skipped.add("partitions not audited: " + n(r.otherTopicFiles() - ofTopics));
            }
            out.append(" (").append(String.join("; ", skipped)).append(')');
        }
        out.append(". Took ").append(String.format(Locale.ROOT, "%.1f s", r.tookMillis() / 1000.0)).append(".\n");

        for (PartitionReport p : r.partitions()) {
            out.append('\n');
            partition(out, p, r.groupId());
        }
        if (!r.unreadable().isEmpty()) {
            out.append("\nUnreadable files (").append(n(r.unreadableFiles())).append("): their offsets count as missing\n");
            r.unreadable().forEach(f -> out.append("  ").append(f.path()).append(": ").append(f.reason()).append('\n'));
            more(out, r.unreadableFiles(), r.unreadable().size(), "files");
        }
        if (!r.strangers().isEmpty()) {
            out.append("\nStrangers (").append(n(r.strangeFiles())).append("): files under the archive root that the "
                    + "archive does not write, that hold rows other than their name says, or that cannot be checked\n");
            r.strangers().forEach(f -> out.append("  ").append(f.path()).append(": ").append(f.reason()).append('\n'));
            more(out, r.strangeFiles(), r.strangers().size(), "files");
        }
        if (!r.unnamed().isEmpty()) {
            out.append("\nUnnamed (").append(n(r.unnamedFiles())).append("): files named as the archive names its files, "
                    + "that no manifest of their topic names: the archive did not publish them there\n");
            r.unnamed().forEach(f -> out.append("  ").append(f.path()).append(": ").append(f.reason()).append('\n'));
            more(out, r.unnamedFiles(), r.unnamed().size(), "files");
        }
        if (!r.earlierTopicIds().isEmpty()) {
            out.append("\nAn earlier topic named ").append(r.topic()).append(" (topic ID ")
                    .append(String.join(", ", r.earlierTopicIds())).append(") has manifests here, so its files are "
                    + "very likely under this root too. Their rows carry the same topic name and partition numbers, so "
                    + "they cannot be told apart from this topic's: they may hide gaps or look like duplicates.\n");
        }
        if (!r.notes().isEmpty()) {
            out.append("\nNotes\n");
            r.notes().forEach(note -> out.append("  - ").append(note).append('\n'));
        }
        List<String> todo = whatToDo(r);
        if (!todo.isEmpty()) {
            out.append("\nWhat to do\n");
            for (int i = 0; i < todo.size(); i++) {
                out.append("  ").append(i + 1).append(". ").append(todo.get(i)).append('\n');
            }
        }
        return out.toString();
    }

    private static void partition(StringBuilder out, PartitionReport p, String group) {
        out.append("Partition ").append(p.partition()).append(": ");
        if (p.clean()) {
            out.append("OK, ").append(n(p.expected())).append(" expected offsets, each exactly once\n");
        } else {
            out.append("PROBLEMS, ").append(n(p.exactlyOnce())).append(" of ").append(n(p.expected()))
                    .append(" expected offsets exactly once");
            if (!p.missing().isEmpty()) {
                out.append("; ").append(n(p.missing().offsets())).append(" missing");
            }
            if (!p.duplicated().isEmpty()) {
                out.append("; ").append(n(p.duplicated().offsets())).append(" duplicated");
            }
            if (!p.archivedAborted().isEmpty()) {
                out.append("; ").append(plural(p.archivedAborted().offsets(), "aborted record")).append(" in files");
            }
            out.append('\n');
        }
        out.append("  range ").append(range(p.from(), p.until())).append(" (log start ").append(p.logStartOffset())
                .append(", last stable offset ").append(p.lastStableOffset()).append("): ").append(n(p.inKafka()))
                .append(" records in Kafka");
        if (p.notInCommittedView() > 0) {
            out.append(", ").append(n(p.notInCommittedView())).append(" offsets not returned read_committed (transaction "
                    + "markers, aborted or compacted records)");
        }
        if (p.deadLettered() > 0) {
            out.append(", ").append(n(p.deadLettered())).append(" dead-lettered");
        }
        out.append("; ").append(plural(p.files(), "file")).append(p.files() == 1 ? " holds " : " hold ")
                .append(plural(p.rows(), "row")).append("\n");

        if (!p.missing().isEmpty()) {
            out.append("  missing: ").append(ranges(p.missing())).append('\n');
            if (p.missingNotYetCommitted() > 0) {
                out.append("    ").append(n(p.missingNotYetCommitted())).append(" of them are at or above the group's "
                        + "committed offset ").append(p.groupCommit().committedOffset())
                        .append(": not archived yet\n");
            }
            for (AuditReport.MissingFile f : p.missingFiles()) {
                out.append("    not visible: ").append(f.path()).append(" (offsets ").append(range(f.firstOffset(),
                        f.lastOffset() + 1)).append(", ").append(n(f.records())).append(" records), named by manifest ")
                        .append(f.manifest()).append('\n');
            }
        }
        if (!p.duplicated().isEmpty()) {
            out.append("  duplicated: ").append(ranges(p.duplicated())).append('\n');
            for (AuditReport.DuplicateRun d : p.duplicates()) {
                out.append("    ").append(range(d.first(), d.last() + 1));
                if (d.offsets() != d.last() - d.first() + 1) {
                    out.append(" (").append(n(d.offsets())).append(" of these offsets)");
                }
                out.append(d.files().size() == 1 ? " more than once in " + d.files().get(0)
                        : " in each of " + String.join(", ", d.files())).append('\n');
            }
            long shown = p.duplicates().stream().mapToLong(AuditReport.DuplicateRun::offsets).sum();
            if (shown < p.duplicated().offsets()) {
                out.append("    … and ").append(n(p.duplicated().offsets() - shown)).append(" more duplicated offsets "
                        + "in runs not listed (raise the list limit to see them)\n");
            }
        }
        if (p.deadLettered() > 0) {
            out.append("  dead-lettered (not expected): ").append(n(p.deadLettered())).append('\n');
            for (AuditReport.DeadLetter d : p.deadLetters()) {
                // the reason in words; the error's class is in the JSON report (--json), for scripts
                out.append("    offset ").append(d.offset()).append(": ").append(d.error()).append(" [")
                        .append(plural(d.attempts(), "attempt")).append("; ").append(d.deadLetterAt()).append("]\n");
            }
            more(out, p.deadLettered(), p.deadLetters().size(), "dead letters");
        }
        if (!p.archivedBelowLogStart().isEmpty()) {
            out.append("  retention: Kafka no longer has offsets below ").append(p.logStartOffset())
                    .append("; the archive holds ").append(ranges(p.archivedBelowLogStart()))
                    .append(" of them (not checked: nothing to compare with)\n");
        } else if (p.logStartOffset() > 0) {
            out.append("  retention: Kafka no longer has offsets below ").append(p.logStartOffset())
                    .append(", and the archive holds none of them\n");
        }
        if (!p.archivedNotInCommittedView().isEmpty()) {
            out.append("  in files but not in Kafka's committed view (compacted, or aborted): ")
                    .append(ranges(p.archivedNotInCommittedView())).append('\n');
        }
        if (!p.archivedAborted().isEmpty()) {
            out.append("  in files but aborted in Kafka (records of transactions the source aborted, or their markers): ")
                    .append(ranges(p.archivedAborted())).append('\n');
        }
        if (!p.deadLetteredAndArchived().isEmpty()) {
            out.append("  dead-lettered and archived as well: ").append(ranges(p.deadLetteredAndArchived())).append('\n');
        }
        if (p.archivedOutsideRange() > 0) {
            out.append("  outside the audited range: ").append(n(p.archivedOutsideRange())).append(" offsets in files\n");
        }
        if (p.groupCommit() != null) {
            AuditReport.GroupCommit c = p.groupCommit();
            out.append("  group ").append(group).append(": ");
            if (c.committedOffset() >= 0) {
                out.append("committed offset ").append(c.committedOffset());
                if (c.manifest() != null) {
                    out.append(", manifest ").append(c.manifest());
                }
                out.append("; ");
            }
            out.append(c.detail()).append(c.status().problem() ? " [PROBLEM]" : "").append('\n');
            c.notVisible().forEach(f -> out.append("    ").append(f).append('\n'));
        }
        long staged = p.staged().awaitingPublish() + p.staged().orphans();
        if (staged > 0 && p.groupCommit() == null) {
            out.append("  staged, not visible: ").append(plural(staged, "file")).append(" (the archiver's next start "
                    + "publishes those its last commit names and removes the others at its first commit; give the group to tell them "
                    + "apart)\n");
        } else if (staged > 0) {
            List<String> kinds = new ArrayList<>();
            if (p.staged().awaitingPublish() > 0) {
                kinds.add(plural(p.staged().awaitingPublish(), "file") + " of the committed manifest, awaiting "
                        + "publication");
            }
            if (p.staged().orphans() > 0) {
                kinds.add(plural(p.staged().orphans(), "orphan") + " that no committed manifest names, which the "
                        + "archiver's next start removes at its first commit");
            }
            out.append("  staged, not visible: ").append(String.join("; ", kinds)).append('\n');
        }
        p.notes().forEach(note -> out.append("  note: ").append(note).append('\n'));
    }

    private static List<String> whatToDo(AuditReport r) {
        List<String> todo = new ArrayList<>();
        String notYet = r.partitions().stream().filter(p -> p.missingNotYetCommitted() > 0)
                .map(p -> Integer.toString(p.partition())).collect(Collectors.joining(", "));
        if (!notYet.isEmpty()) {
            todo.add(partitions(notYet) + ": offsets at or above the group's committed offset are not archived yet. "
                    + "If the archiver is running, let it catch up and audit again; if it stopped, start it.");
        }
        String awaiting = partitionsWith(r, CommitStatus.AWAITING_PUBLISH);
        if (!awaiting.isEmpty()) {
            todo.add(partitions(awaiting) + ": the committed manifest's files are still staged. Start the archiver "
                    + "with the same group: its recovery publishes them. Then audit again.");
        }
        String lostManifest = partitionsWith(r, CommitStatus.MANIFEST_MISSING, CommitStatus.MANIFEST_UNREADABLE);
        if (!lostManifest.isEmpty()) {
            todo.add(partitions(lostManifest) + ": the committed manifest is missing or damaged, and the archiver "
                    + "will not start on it. Restore it from a backup. If there is none and no offset below the "
                    + "committed one is missing, reset the group's offset of that partition to the same offset "
                    + "(kafka-consumer-groups --reset-offsets --to-offset), which drops the manifest's name.");
        }
        String belowLogStart = partitionsWith(r, CommitStatus.BELOW_LOG_START);
        if (!belowLogStart.isEmpty()) {
            todo.add(partitions(belowLogStart) + ": Kafka deleted records the archiver had not committed past (its "
                    + "retention is shorter than the archiver's delay, or records were deleted by hand). Those not in "
                    + "files cannot be archived any more: restore them from another copy if there is one, and give "
                    + "the topic a longer retention or the archiver more speed so that it does not happen again.");
        }
        boolean missing = r.partitions().stream().anyMatch(p -> p.missing().offsets() > p.missingNotYetCommitted());
        if (missing || !partitionsWith(r, CommitStatus.FILES_GONE).isEmpty()) {
            todo.add("Missing offsets: Kafka still has these records. Restore the files named as not visible from a "
                    + "backup, or archive the missing ranges again, then audit again. Do not move the archiver "
                    + "group's offsets back: everything after them would be archived a second time.");
        }
        if (r.duplicated() > 0) {
            todo.add("Duplicated offsets: the files listed for each run hold the same records (a copied file, or one "
                    + "published twice). Keep one and move the others out of the archive root, then audit again to "
                    + "see that no gap appeared.");
        }
        if (r.partitions().stream().anyMatch(p -> !p.archivedAborted().isEmpty())) {
            todo.add("Aborted records in files: readers of the archive see records whose transaction the source "
                    + "aborted. Sluice's archiver reads read_committed, so they came from elsewhere (files copied in, "
                    + "an archive written by another tool or with isolation.level read_uncommitted). Find the files "
                    + "holding the listed offsets, take those records out, then audit again.");
        }
        if (r.unreadableFiles() > 0) {
            todo.add("Unreadable files are damaged (truncated or corrupt) and their offsets count as missing. Restore "
                    + "them from a backup, or archive their offsets again and move them out of the archive root.");
        }
        if (!r.earlierTopicIds().isEmpty()) {
            todo.add("Move the earlier topic's files out of the archive root (its manifests under _sluice/manifests/"
                    + String.join("/, _sluice/manifests/", r.earlierTopicIds()) + "/ name them), or archive the new "
                    + "topic under another root, then audit again.");
        }
        if (r.strangeFiles() + r.unnamedFiles() > 0) {
            todo.add("Strangers and unnamed files are not the archive's, but readers that glob the archive root read "
                    + "them (a copy under another name is read twice). See what each holds (listed above), move them "
                    + "out of the archive root, then audit again.");
        }
        return todo;
    }

    private static String partitions(String numbers) {
        return (numbers.contains(",") ? "Partitions " : "Partition ") + numbers;
    }

    private static String partitionsWith(AuditReport r, CommitStatus... statuses) {
        List<CommitStatus> wanted = List.of(statuses);
        return r.partitions().stream().filter(p -> p.groupCommit() != null && wanted.contains(p.groupCommit().status()))
                .map(p -> Integer.toString(p.partition())).collect(Collectors.joining(", "));
    }

    /** "400 offsets in 1 range: 400–799" with the listed ranges, and how many more there are. */
    static String ranges(OffsetRanges r) {
        StringBuilder b = new StringBuilder();
        b.append(plural(r.offsets(), "offset"));
        if (r.runs() > 1) {
            b.append(" in ").append(n(r.runs())).append(" ranges between ").append(r.lowest()).append(" and ")
                    .append(r.highest());
        }
        b.append(": ").append(r.listed().stream().map(OffsetRanges.Span::toString).collect(Collectors.joining(", ")));
        if (r.truncated()) {
            b.append(", … (").append(n(r.runs() - r.listed().size())).append(" more ranges)");
        }
        return b.toString();
    }

    private static void more(StringBuilder out, long total, int listed, String what) {
        if (total > listed) {
            out.append("    … and ").append(n(total - listed)).append(" more ").append(what)
                    .append(" (raise the list limit to see them)\n");
        }
    }

    /** An end-exclusive range as people read it, inclusive: "0–1499", or "none" when empty. */
    private static String range(long from, long until) {
        if (until <= from) {
            return "none (at " + from + ")";
        }
        return until - from == 1 ? Long.toString(from) : from + "–" + (until - 1);
    }

    static String n(long value) {
        return String.format(Locale.ROOT, "%,d", value);
    }

    private static String plural(long count, String noun) {
        return n(count) + " " + noun + (count == 1 ? "" : "s");
    }
}
