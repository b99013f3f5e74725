package io.sluice.audit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * The audit report as one JSON object, written field by field so that its shape is what {@code docs/audit.md}
 * documents, whatever the Java records look like.
 *
 * <p>Threading: stateless.
 */
final class ReportJson {

    private static final ObjectMapper JSON = new ObjectMapper();

    private ReportJson() {
    }

    static String render(AuditReport r) {
        ObjectNode root = JSON.createObjectNode();
        root.put("status", r.clean() ? "ok" : "problems");
        root.put("exitStatus", r.exitStatus());
        root.put("summary", r.summary());
        root.put("topic", r.topic());
        root.put("topicId", r.topicId());
        root.put("storage", r.storage());
        root.put("startedAt", r.startedAt().toString());
        root.put("tookMillis", r.tookMillis());
        root.put("deadLetterTopic", r.deadLetterTopic());
        root.put("groupId", r.groupId());
        ObjectNode totals = root.putObject("totals");
        totals.put("expected", r.expected());
        totals.put("exactlyOnce", r.exactlyOnce());
        totals.put("missing", r.missing());
        totals.put("duplicated", r.duplicated());
        totals.put("unreadableFiles", r.unreadableFiles());
        totals.put("strangeFiles", r.strangeFiles());
        totals.put("unnamedFiles", r.unnamedFiles());
        ObjectNode files = root.putObject("files");
        files.put("visible", r.visibleFiles());
        files.put("read", r.filesRead());
        files.put("rows", r.rowsRead());
        files.put("skipped", r.otherTopicFiles());
        files.put("checkedByManifest", r.manifestCheckedFiles());
        ArrayNode unreadable = files.putArray("unreadable");
        r.unreadable().forEach(f -> unreadable.addObject().put("path", f.path()).put("reason", f.reason()));
        ArrayNode strangers = files.putArray("strangers");
        r.strangers().forEach(f -> strangers.addObject().put("path", f.path()).put("reason", f.reason()));
        ArrayNode unnamed = files.putArray("unnamed");
        r.unnamed().forEach(f -> unnamed.addObject().put("path", f.path()).put("reason", f.reason()));
        ObjectNode otherTopics = files.putObject("otherTopics");
        r.otherTopics().forEach(otherTopics::put);
        ArrayNode partitions = root.putArray("partitions");
        r.partitions().forEach(p -> partition(partitions.addObject(), p));
        strings(root.putArray("earlierTopicIds"), r.earlierTopicIds());
        strings(root.putArray("notes"), r.notes());
        try {
            return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a tree of plain values always serializes", e);
        }
    }

    private static void partition(ObjectNode o, PartitionReport p) {
        o.put("partition", p.partition());
        o.put("clean", p.clean());
        o.put("logStartOffset", p.logStartOffset());
        o.put("lastStableOffset", p.lastStableOffset());
        o.put("from", p.from());
        o.put("until", p.until());
        o.put("inKafka", p.inKafka());
        o.put("notInCommittedView", p.notInCommittedView());
        o.put("deadLettered", p.deadLettered());
        ArrayNode letters = o.putArray("deadLetters");
        p.deadLetters().forEach(d -> letters.addObject().put("offset", d.offset()).put("errorClass", d.errorClass())
                .put("error", d.error()).put("attempts", d.attempts()).put("deadLetterAt", d.deadLetterAt()));
        o.put("expected", p.expected());
        o.put("exactlyOnce", p.exactlyOnce());
        ranges(o.putObject("missing"), p.missing());
        o.put("missingNotYetCommitted", p.missingNotYetCommitted());
        ArrayNode missingFiles = o.putArray("missingFiles");
        p.missingFiles().forEach(f -> missingFiles.addObject().put("path", f.path()).put("firstOffset", f.firstOffset())
                .put("lastOffset", f.lastOffset()).put("records", f.records()).put("manifest", f.manifest()));
        ranges(o.putObject("duplicated"), p.duplicated());
        ranges(o.putObject("aborted"), p.archivedAborted());
        ArrayNode duplicates = o.putArray("duplicates");
        p.duplicates().forEach(d -> {
            ObjectNode run = duplicates.addObject().put("first", d.first()).put("last", d.last())
                    .put("offsets", d.offsets());
            strings(run.putArray("files"), d.files());
        });
        ObjectNode archived = o.putObject("archivedNotExpected");
        ranges(archived.putObject("belowLogStart"), p.archivedBelowLogStart());
        ranges(archived.putObject("notInCommittedView"), p.archivedNotInCommittedView());
        ranges(archived.putObject("deadLettered"), p.deadLetteredAndArchived());
        archived.put("outsideRange", p.archivedOutsideRange());
        o.put("files", p.files());
        o.put("rows", p.rows());
        if (p.groupCommit() == null) {
            o.putNull("groupCommit");
        } else {
            AuditReport.GroupCommit c = p.groupCommit();
            ObjectNode commit = o.putObject("groupCommit");
            commit.put("committedOffset", c.committedOffset());
            commit.put("manifest", c.manifest());
            commit.put("status", c.status().name());
            commit.put("problem", c.status().problem());
            commit.put("detail", c.detail());
            strings(commit.putArray("notVisible"), c.notVisible());
        }
        ObjectNode staged = o.putObject("staged");
        staged.put("awaitingPublish", p.staged().awaitingPublish());
        staged.put("orphans", p.staged().orphans());
        strings(staged.putArray("listed"), p.staged().listed());
        strings(o.putArray("notes"), p.notes());
    }

    private static void ranges(ObjectNode o, OffsetRanges r) {
        o.put("offsets", r.offsets());
        o.put("runs", r.runs());
        if (r.isEmpty()) {
            o.putNull("lowest");
            o.putNull("highest");
        } else {
            o.put("lowest", r.lowest());
            o.put("highest", r.highest());
        }
        ArrayNode listed = o.putArray("listed");
        r.listed().forEach(s -> listed.addArray().add(s.first()).add(s.last()));
        o.put("truncated", r.truncated());
    }

    private static void strings(ArrayNode array, List<String> values) {
        values.forEach(array::add);
    }
}
