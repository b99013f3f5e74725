package io.sluice.storage.value;

import java.util.List;

/**
 * How the records' values are encoded, and so how the layout reads their fields and what the row formats receive:
 * JSON ({@code io.sluice.storage.json.JsonEncoding}) or Avro binary with a given writer schema, plain or in the
 * Confluent wire format ({@code io.sluice.storage.avro.AvroEncoding}).
 *
 * <p>Immutable and thread-safe.
 */
public interface ValueEncoding {

    /** The encoding's name as the configuration spells it: json, avro or avro-confluent. */
    String name();

    /**
     * A reader of these fields, for one thread.
     *
     * @param paths the fields wanted, in the order {@link ValueFields} gives them
     * @param whole whether a file writer needs the whole decoded value too, not just these fields
     * @throws InvalidFieldPathException when a path cannot be read from values of this encoding (an encoding with a
     *     schema checks each path against it)
     */
    ValueReader reader(List<FieldPath> paths, boolean whole);

    /**
     * A reader of only these fields, for a format whose writer parses every value whole itself and rejects what is not
     * in this encoding ({@code FileFormat.parsesValues}): it may stop reading a value once it has the fields. By
     * default {@link #reader(List, boolean) reader(paths, false)}.
     */
    default ValueReader fieldReader(List<FieldPath> paths) {
        return reader(paths, false);
    }
}
