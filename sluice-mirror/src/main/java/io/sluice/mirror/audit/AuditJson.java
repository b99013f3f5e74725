package io.sluice.mirror.audit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The report as one JSON object, written field by field so that its shape stays what it is whatever the Java records
 * look like.
 *
 * <p>Stateless.
 */
final class AuditJson {

    private static final ObjectMapper JSON = new ObjectMapper();

    private AuditJson() {
    }

    static String render(MirrorAuditReport r) {
        ObjectNode root = JSON.createObjectNode();
        root.put("mirror", r.mirror());
        root.put("status", r.unverified() ? "unverified" : r.clean() ? "clean"
                : r.onlyDuplicates() ? "duplicates-only" : "differences");
        root.put("exitStatus", r.exitStatus());
        root.put("delivery", r.delivery().name());
        root.put("comparedUpTo", r.untilSourceEnd() ? "sourceEnd" : "mirrorProgress");
        root.put("sourceCluster", r.sourceCluster());
        root.put("targetCluster", r.targetCluster());
        root.put("startedAt", r.startedAt().toString());
        root.put("tookMillis", r.tookMillis());
        ArrayNode partitions = root.putArray("partitions");
        r.partitions().forEach(p -> partition(partitions.addObject(), p));
        root.put("strayCopies", r.strayCopies());
        ArrayNode notes = root.putArray("notes");
        r.notes().forEach(notes::add);
        try {
            return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a tree of plain values always serializes", e);
        }
    }

    private static void partition(ObjectNode o, PartitionAudit p) {
        o.put("sourceTopic", p.sourceTopic());
        o.put("targetTopic", p.targetTopic());
        o.put("partition", p.partition());
        o.put("clean", p.clean());
        o.put("sourceLogStart", p.sourceLogStart());
        o.put("progress", p.progress());
        o.put("sourceRecords", p.sourceRecords());
        o.put("copies", p.copies());
        o.put("missing", p.missing());
        o.put("duplicates", p.duplicates());
        o.put("outOfOrder", p.outOfOrder());
        o.put("mismatches", p.mismatches());
        o.put("notInSource", p.notInSource());
        o.put("beyondProgress", p.beyondProgress());
        o.put("beyondProgressAllowed", p.beyondProgressAllowed());
        o.put("compactedInTarget", p.compactedInTarget());
        o.put("compactedInSource", p.compactedInSource());
        o.put("notExpected", p.notExpected());
        o.put("fromElsewhere", p.fromElsewhere());
        o.put("belowSourceLogStart", p.belowSourceLogStart());
        o.put("lostBeforeCopy", p.lostBeforeCopy());
        o.put("sourceSha256", p.sourceHash());
        o.put("targetSha256", p.targetHash());
        if (p.firstDifference().isPresent()) {
            o.put("firstDifference", p.firstDifference().get());
        } else {
            o.putNull("firstDifference");
        }
    }
}
