package io.sluice.audit;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Everything the visible files under the archive root hold for the audited topic, and the files that could not be
 * taken into account (unreadable, strangers, formats without coordinates).
 *
 * <p>Threading: filled by the audit's thread only.
 */
final class ArchiveContents {

    /** A visible Sluice data file of a format whose rows carry no Kafka coordinates: its manifests must vouch for it. */
    record Claim(String path, SluiceFileName name) {
    }

    final Map<Integer, FoundPartition> partitions = new HashMap<>();
    /** Visible paths of the audited topic's files, to check what manifests name. */
    final Set<String> visible = new HashSet<>();
    final List<AuditReport.UnreadableFile> unreadable = new ArrayList<>();
    final List<AuditReport.StrangeFile> strangers = new ArrayList<>();
    final List<Claim> claims = new ArrayList<>();
    long visibleFiles;
    long filesRead;
    long rowsRead;
    /** Files that by their name belong to another topic or to a partition not audited: not read. */
    long skippedFiles;
    long otherRows;

    FoundPartition partition(int partition) {
        return partitions.computeIfAbsent(partition, p -> new FoundPartition());
    }
}
