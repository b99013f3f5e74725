package io.sluice.storage.avro;

import io.sluice.storage.value.FieldPath;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;

/**
 * A reader schema with only the fields the layout reads, so that decoding a value skips the rest (Avro's schema
 * resolution passes over a skipped string by its length, without building it). The records on the paths keep their
 * names, so that resolution pairs them with the writer's; their other fields are left out.
 *
 * <p>Stateless.
 */
final class AvroProjection {

    private AvroProjection() {
    }

    /**
     * @param paths checked against {@code record} already ({@link AvroPath#resolve})
     * @return the projection, or null when there is none to make: a record on a path is referred to more than once
     *     in the schema (its one name could not stand for two different projections), so the value is read whole
     */
    static Schema of(Schema record, List<FieldPath> paths) {
        Map<String, Integer> uses = new HashMap<>();
        countRecords(record, uses);
        Node wanted = new Node();
        for (FieldPath p : paths) {
            Node n = wanted;
            for (String name : p.names()) {
                n = n.children.computeIfAbsent(name, k -> new Node());
            }
        }
        try {
            return project(record, wanted, uses);
        } catch (SharedRecord e) {
            return null;
        }
    }

    /** The fields wanted under one record: a leaf has no children and keeps the field's whole type. */
    private static final class Node {
        final Map<String, Node> children = new LinkedHashMap<>();
    }

    /** A record on a path that other parts of the schema refer to as well. */
    private static final class SharedRecord extends Exception {
        SharedRecord() {
            super(null, null, false, false);
        }
    }

    private static Schema project(Schema schema, Node wanted, Map<String, Integer> uses) throws SharedRecord {
        if (wanted.children.isEmpty()) {
            return schema;
        }
        if (schema.getType() == Schema.Type.UNION) {
            List<Schema> branches = new ArrayList<>();
            for (Schema b : schema.getTypes()) {
                branches.add(b.getType() == Schema.Type.RECORD ? project(b, wanted, uses) : b);
            }
            return Schema.createUnion(branches);
        }
        if (uses.get(schema.getFullName()) > 1) {
            throw new SharedRecord();
        }
        List<Schema.Field> fields = new ArrayList<>();
        for (Schema.Field f : schema.getFields()) {
            Node child = wanted.children.get(f.name());
            if (child != null) {
                fields.add(new Schema.Field(f, project(f.schema(), child, uses)));
            }
        }
        return Schema.createRecord(schema.getName(), schema.getDoc(), schema.getNamespace(), schema.isError(), fields);
    }

    /** How many times each record type appears in the schema, by its definition or by reference. */
    private static void countRecords(Schema s, Map<String, Integer> uses) {
        switch (s.getType()) {
            case RECORD -> {
                if (uses.merge(s.getFullName(), 1, Integer::sum) == 1) {
                    s.getFields().forEach(f -> countRecords(f.schema(), uses));
                }
            }
            case ARRAY -> countRecords(s.getElementType(), uses);
            case MAP -> countRecords(s.getValueType(), uses);
            case UNION -> s.getTypes().forEach(t -> countRecords(t, uses));
            default -> {
            }
        }
    }
}
