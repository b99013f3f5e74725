package io.sluice.storage.avro;

import io.sluice.storage.value.FieldPath;
import io.sluice.storage.value.InvalidFieldPathException;
import io.sluice.storage.value.UnreadableFieldException;
import io.sluice.storage.value.ValueTimes;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.avro.LogicalType;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.generic.IndexedRecord;

/**
 * A {@link FieldPath} checked against a record schema and turned into field positions, so that reading it from a
 * decoded value is a few array lookups. A path may go through records and nullable records (a union of null and one
 * record); it must end at a scalar: a string, enum, number or boolean (a time field: a long, plain for epoch
 * milliseconds or a {@code timestamp-millis} or {@code timestamp-micros}, or a string), or a nullable one.
 *
 * <p>Immutable and thread-safe.
 */
final class AvroPath {

    private static final Set<Schema.Type> SCALARS = Set.of(Schema.Type.STRING, Schema.Type.ENUM, Schema.Type.INT,
            Schema.Type.LONG, Schema.Type.FLOAT, Schema.Type.DOUBLE, Schema.Type.BOOLEAN);

    private final int[] positions;
    /** For a time field: whether a long is in microseconds (timestamp-micros) rather than milliseconds. */
    private final boolean micros;
    /** For a text field: whether an int is a {@code date} (days since the epoch), written as yyyy-MM-dd. */
    private final boolean intIsDate;

    private AvroPath(int[] positions, boolean micros, boolean intIsDate) {
        this.positions = positions;
        this.micros = micros;
        this.intIsDate = intIsDate;
    }

    /** @throws InvalidFieldPathException naming the step that does not exist or the type that cannot be read */
    static AvroPath resolve(Schema record, FieldPath path) {
        List<String> names = path.names();
        int[] positions = new int[names.size()];
        Schema current = record;
        String where = "the value schema's record " + record.getFullName();
        for (int i = 0; i < names.size(); i++) {
            Schema.Field field = current.getField(names.get(i));
            if (field == null) {
                throw invalid(path, path.describe() + ": " + where + " has no field '" + names.get(i)
                        + "'; its fields: " + current.getFields().stream().map(Schema.Field::name)
                                .collect(Collectors.joining(", ")));
            }
            positions[i] = field.pos();
            String step = String.join(".", names.subList(0, i + 1));
            if (i < names.size() - 1) {
                current = nullableRecord(field.schema());
                if (current == null) {
                    throw invalid(path, path.describe() + ": '" + step + "' is " + describe(field.schema())
                            + " in the value schema, not a record or a nullable record, so the path cannot go on to '"
                            + names.get(i + 1) + "'");
                }
                where = "the record " + current.getFullName() + " ('" + step + "')";
            } else {
                return leaf(path, positions, field.schema());
            }
        }
        throw new IllegalStateException("a path has at least one name");
    }

    private static AvroPath leaf(FieldPath path, int[] positions, Schema schema) {
        List<Schema> branches = nonNull(schema);
        if (branches.isEmpty()) {
            throw invalid(path, path.describe() + " is always null in the value schema");
        }
        boolean micros = false;
        boolean intIsDate = false;
        for (Schema b : branches) {
            LogicalType logical = b.getLogicalType();
            if (path.time()) {
                boolean epochLong = b.getType() == Schema.Type.LONG && (logical == null
                        || logical instanceof LogicalTypes.TimestampMillis
                        || logical instanceof LogicalTypes.TimestampMicros);
                if (!epochLong && b.getType() != Schema.Type.STRING) {
                    throw invalid(path, path.describe() + " is " + describe(schema) + " in the value schema; a time "
                            + "field must be a long (epoch milliseconds, or a timestamp-millis or timestamp-micros) or "
                            + "a string (ISO-8601 with an offset, or epoch milliseconds)");
                }
                micros |= logical instanceof LogicalTypes.TimestampMicros;
            } else if (!SCALARS.contains(b.getType())) {
                throw invalid(path, path.describe() + " is " + describe(schema) + " in the value schema; the template "
                        + "takes fields that are strings, enums, numbers or booleans");
            } else {
                intIsDate |= logical instanceof LogicalTypes.Date;
            }
        }
        return new AvroPath(positions, micros, intIsDate);
    }

    /** The record a path may step into: the schema itself, or the one record of a union with null; else null. */
    private static Schema nullableRecord(Schema schema) {
        List<Schema> branches = nonNull(schema);
        return branches.size() == 1 && branches.get(0).getType() == Schema.Type.RECORD ? branches.get(0) : null;
    }

    private static List<Schema> nonNull(Schema schema) {
        List<Schema> all = schema.getType() == Schema.Type.UNION ? schema.getTypes() : List.of(schema);
        return all.stream().filter(s -> s.getType() != Schema.Type.NULL).toList();
    }

    /** "a string", "an array", "a long (timestamp-micros)", "a union of null, int, string". */
    static String describe(Schema s) {
        if (s.getType() == Schema.Type.UNION) {
            return "a union of " + s.getTypes().stream().map(AvroPath::typeName).collect(Collectors.joining(", "));
        }
        String name = typeName(s);
        return ("aeiou".indexOf(name.charAt(0)) >= 0 ? "an " : "a ") + name;
    }

    private static String typeName(Schema s) {
        String name = switch (s.getType()) {
            case RECORD, ENUM, FIXED -> s.getType().getName() + " " + s.getFullName();
            default -> s.getType().getName();
        };
        return s.getLogicalType() == null ? name : name + " (" + s.getLogicalType().getName() + ")";
    }

    private static InvalidFieldPathException invalid(FieldPath path, String message) {
        return new InvalidFieldPathException(path, message);
    }

    /** The leaf's datum in {@code value}, or null when it or a record on the way is null. */
    private Object find(IndexedRecord value) {
        Object v = value;
        for (int p : positions) {
            if (v == null) {
                return null;
            }
            v = ((IndexedRecord) v).get(p);
        }
        return v;
    }

    /** Numbers, booleans and enum symbols as Avro writes them in JSON; a {@code date} as yyyy-MM-dd. */
    String text(IndexedRecord value) {
        Object v = find(value);
        if (v == null) {
            return null;
        }
        if (intIsDate && v instanceof Integer days) {
            return LocalDate.ofEpochDay(days).toString();
        }
        return v.toString();
    }

    Instant time(IndexedRecord value) throws UnreadableFieldException {
        Object v = find(value);
        if (v instanceof Long n) {
            return micros ? Instant.ofEpochSecond(Math.floorDiv(n, 1_000_000L), Math.floorMod(n, 1_000_000L) * 1_000L)
                    : Instant.ofEpochMilli(n);
        }
        return v == null ? null : ValueTimes.parse(v.toString());
    }
}
