package io.sluice.storage.avro;

import io.sluice.storage.value.FieldPath;
import io.sluice.storage.value.InvalidFieldPathException;
import io.sluice.storage.value.ValueEncoding;
import io.sluice.storage.value.ValueReader;
import java.util.List;
import org.apache.avro.Schema;

/**
 * Avro binary values of one writer schema, given by the user: plain (the datum's bytes, nothing else) or in the
 * Confluent wire format (the magic byte 0, a 4-byte schema id, then the datum). There is no schema registry here: the
 * id is not looked up, every value is read with the given schema, and the id only appears in rejection reasons.
 *
 * <p>A reader decodes each value once. When the file writers need the value (Parquet or Avro rows of the same
 * schema) it is decoded whole; when only the layout reads it (raw files), through a projection of just the layout's
 * fields, so the rest is skipped rather than built.
 *
 * <p>Immutable and thread-safe.
 */
public final class AvroEncoding implements ValueEncoding {

    private final Schema schema;
    private final boolean confluent;

    private AvroEncoding(Schema schema, boolean confluent) {
        if (schema.getType() != Schema.Type.RECORD) {
            throw new IllegalArgumentException("Avro values need a record schema (its fields are what the layout and "
                    + "the columns read), not " + AvroPath.describe(schema));
        }
        this.schema = schema;
        this.confluent = confluent;
    }

    /** Plain Avro binary: each value is one datum of {@code schema}. */
    public static AvroEncoding plain(Schema schema) {
        return new AvroEncoding(schema, false);
    }

    /** The Confluent wire format: the magic byte 0, a 4-byte schema id (ignored), then a datum of {@code schema}. */
    public static AvroEncoding confluent(Schema schema) {
        return new AvroEncoding(schema, true);
    }

    @Override
    public String name() {
        return confluent ? "avro-confluent" : "avro";
    }

    /** The writer schema of the values. */
    public Schema schema() {
        return schema;
    }

    boolean confluent() {
        return confluent;
    }

    /**
     * Checks that {@code path} can be read from values matching {@code record}: each step a field of a record or of a
     * nullable record, the last a scalar (or, for a time field, a long or a string).
     *
     * @throws InvalidFieldPathException naming the step that does not exist or the type that cannot be read
     */
    public static void checkPath(Schema record, FieldPath path) {
        AvroPath.resolve(record, path);
    }

    @Override
    public ValueReader reader(List<FieldPath> paths, boolean whole) {
        AvroPath[] resolved = paths.stream().map(p -> AvroPath.resolve(schema, p)).toArray(AvroPath[]::new);
        Schema projection = whole ? null : AvroProjection.of(schema, paths);
        if (projection == null) {
            return new AvroValueReader(this, schema, resolved);
        }
        // the same paths, at their positions in the projection
        return new AvroValueReader(this, projection,
                paths.stream().map(p -> AvroPath.resolve(projection, p)).toArray(AvroPath[]::new));
    }

    @Override
    public String toString() {
        return name() + " (" + schema.getFullName() + ")";
    }
}
