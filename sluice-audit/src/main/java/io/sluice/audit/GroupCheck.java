package io.sluice.audit;

import io.sluice.audit.AuditReport.CommitStatus;
import io.sluice.core.wire.CommitMetadata;
import io.sluice.storage.backend.PendingRef;
import io.sluice.storage.sink.ManifestFile;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.Uuid;

/**
 * Checks what the archiver group's commit promises for a partition: its metadata ({@code sluice1:<topic id>:...|<manifest>})
 * names the committed manifest, which must exist, and every file it lists must be visible. Files still staged are
 * awaiting publication (the archiver stopped after the commit and before publishing; its next start publishes them);
 * other staged files are orphans its next start removes (at its first commit, once it knows the partition is its own).
 *
 * <p>Threading: the audit's thread only.
 */
final class GroupCheck {

    /** Where the archive sink stages a partition's files (see {@code docs/exactly-once.md}). */
    static String stagingPrefix(String topicId, int partition) {
        return "_sluice/staging/" + topicId + "/" + partition + "/";
    }

    /** The commit's verdict and the staged files it explains. */
    record Result(AuditReport.GroupCommit commit, AuditReport.Staged staged) {
    }

    private GroupCheck() {
    }

    /** @param commit the group's commit, or null when the group has none for the partition */
    static Result check(int partition, OffsetAndMetadata commit, String topicId, ManifestIndex manifests,
            Set<String> visible, List<PendingRef> staged, int limit) throws IOException {
        Set<String> committedStaging = new HashSet<>();
        AuditReport.GroupCommit verdict = commit == null ? null
                : verdict(partition, commit, topicId, manifests, visible, staged, committedStaging, limit);
        long awaiting = staged.stream().filter(r -> committedStaging.contains(r.staging())).count();
        List<String> listed = staged.stream().limit(limit)
                .map(r -> r.path() + " (staged as " + r.staging() + ")").toList();
        AuditReport.Staged leftovers = staged.isEmpty() ? AuditReport.Staged.NONE
                : new AuditReport.Staged(awaiting, staged.size() - awaiting, listed);
        return new Result(verdict, leftovers);
    }

    static AuditReport.GroupCommit nothingCommitted() {
        return new AuditReport.GroupCommit(-1, null, CommitStatus.NOTHING_COMMITTED,
                "the group has no committed offset for this partition", List.of());
    }

    private static AuditReport.GroupCommit verdict(int partition, OffsetAndMetadata commit, String topicId,
            ManifestIndex manifests, Set<String> visible, List<PendingRef> staged, Set<String> committedStaging,
            int limit) throws IOException {
        long offset = commit.offset();
        String metadata = commit.metadata();
        Optional<Uuid> committedFor;
        try {
            committedFor = CommitMetadata.topicId(metadata);
        } catch (IllegalArgumentException e) {
            committedFor = Optional.empty();
        }
        if (committedFor.isEmpty()) {
            return new AuditReport.GroupCommit(offset, null, CommitStatus.NOT_SLUICE, "the commit's metadata is not "
                    + "a Sluice archiver's (" + abbreviate(metadata) + ")", List.of());
        }
        if (!committedFor.get().toString().equals(topicId)) {
            return new AuditReport.GroupCommit(offset, null, CommitStatus.OTHER_TOPIC_ID, "the commit was made for "
                    + "topic ID " + committedFor.get() + ", an earlier topic of this name; the archiver ignores it",
                    List.of());
        }
        String name = CommitMetadata.sinkData(metadata).orElse("");
        if (name.isEmpty()) {
            // an exactly-once archive commits without a manifest when nothing was sealed since its last commit (a rerun
            // with nothing new to archive, say): "at-least-once mode" first misled a new user about such an archive
            return new AuditReport.GroupCommit(offset, null, CommitStatus.NO_MANIFEST, manifests.any()
                    ? "the commit names no manifest: no file was sealed between it and the commit before it (a run "
                            + "that found nothing new to archive, or records that went into no file); the files of "
                            + "earlier commits are checked row by row with the others"
                    : "the commit names no manifest, and the archive holds none: it was archived at least once",
                    List.of());
        }
        var entry = manifests.byName(partition, name);
        if (entry.isEmpty()) {
            return new AuditReport.GroupCommit(offset, name, CommitStatus.MANIFEST_MISSING, "the committed manifest "
                    + name + " does not exist: the archiver cannot recover this partition, and the files it named are "
                    + "unknown", List.of());
        }
        if (entry.get().manifest() == null) {
            return new AuditReport.GroupCommit(offset, name, CommitStatus.MANIFEST_UNREADABLE, entry.get().problem(),
                    List.of());
        }
        Set<String> stagedRefs = new HashSet<>();
        staged.forEach(r -> stagedRefs.add(r.staging()));
        List<String> awaiting = new ArrayList<>();
        List<String> gone = new ArrayList<>();
        List<ManifestFile> files = entry.get().manifest().files();
        for (ManifestFile f : files) {
            if (visible.contains(f.path())) {
                continue;
            }
            if (stagedRefs.contains(f.staging())) {
                committedStaging.add(f.staging());
                awaiting.add(f.path());
            } else {
                gone.add(f.path());
            }
        }
        long end = entry.get().manifest().endOffset();
        // a commit after the manifest's end moved past records that went into no file (dead letters, skipped
        // records, transaction markers) and named the same manifest again; one before it is not the archiver's way
        String endNote = end == offset ? "" : end < offset
                ? "; the commit is past the manifest's end (" + end + "): what lies between went into no file (dead "
                        + "letters, skipped records or transaction markers; the audit of the offsets accounts for each)"
                : "; the manifest ends at " + end + ", past the committed offset: the archiver never commits so";
        if (!gone.isEmpty()) {
            return new AuditReport.GroupCommit(offset, name, CommitStatus.FILES_GONE, gone.size() + " of the "
                    + files.size() + " files the committed manifest names are neither visible nor staged" + endNote,
                    gone.stream().limit(limit).toList());
        }
        if (!awaiting.isEmpty()) {
            return new AuditReport.GroupCommit(offset, name, CommitStatus.AWAITING_PUBLISH, awaiting.size() + " of the "
                    + files.size() + " files the committed manifest names are still staged: the archiver stopped "
                    + "before publishing them" + endNote, awaiting.stream().limit(limit).toList());
        }
        return new AuditReport.GroupCommit(offset, name, CommitStatus.COMPLETE, (files.size() == 1
                ? "the 1 file the committed manifest names is visible"
                : "all " + files.size() + " files the committed manifest names are visible") + endNote, List.of());
    }

    private static String abbreviate(String text) {
        if (text == null || text.isEmpty()) {
            return "empty";
        }
        return text.length() <= 60 ? "'" + text + "'" : "'" + text.substring(0, 60) + "…'";
    }
}
