package io.sluice.audit;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Everything the visible files under the archive root hold for the audited topic, and the files that could not be
 * taken into account (unreadable, strangers, unnamed, formats without coordinates), and whose the other files are.
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
    /** Files with a sink name that no manifest of their topic names. */
    final List<AuditReport.StrangeFile> unnamed = new ArrayList<>();
    final List<Claim> claims = new ArrayList<>();
    /** Files of other topics (by their manifests, or by their rows when they have none), by topic. */
    final SortedMap<String, Long> otherTopics = new TreeMap<>();
    long visibleFiles;
    long filesRead;
    long rowsRead;
    /** Files of other topics and of partitions not audited: not counted as read. */
    long skippedFiles;
    long otherRows;

    void otherTopic(String topic) {
        otherTopics.merge(topic, 1L, Long::sum);
        skippedFiles++;
    }

    /** Lists the file as a stranger or unnamed when the verdict says so. */
    void add(String path, Provenance.Verdict verdict) {
        if (verdict.problem() == Provenance.Kind.UNNAMED) {
            unnamed.add(new AuditReport.StrangeFile(path, verdict.reason()));
        } else if (verdict.problem() != null) {
            strangers.add(new AuditReport.StrangeFile(path, verdict.reason()));
        }
    }

    FoundPartition partition(int partition) {
        return partitions.computeIfAbsent(partition, p -> new FoundPartition());
    }
}
