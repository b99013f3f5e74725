package io.sluice.storage.format;

import io.sluice.core.sink.RecordRejectedException;
import io.sluice.storage.avro.AvroEncoding;
import io.sluice.storage.avro.AvroFields;
import io.sluice.storage.json.JsonEncoding;
import io.sluice.storage.value.FieldPath;
import io.sluice.storage.value.InvalidFieldPathException;
import io.sluice.storage.value.ValueEncoding;
import io.sluice.storage.value.ValueFields;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.avro.JsonProperties;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

/**
 * The rows of Parquet and Avro files: the Kafka coordinates first, then the fields of the value's record schema.
 *
 * <p>Columns: {@code kafka_topic} (string), {@code kafka_partition} (int), {@code kafka_offset} (long),
 * {@code kafka_timestamp} (long, timestamp-millis), then with keys {@code kafka_key} (nullable string) and with headers
 * {@code kafka_headers} (an array of {@code {key: string, value: nullable string}} in record order, so repeated
 * header names survive). Keys and header values must be UTF-8 text: one that is not rejects its record, rather than
 * being stored garbled. The row record takes the value schema's name.
 *
 * <p>The value's fields come from JSON values converted to the schema ({@link JsonToAvro}), or from Avro values of
 * the value schema, which the sink decoded already ({@link AvroFields}): those are copied over as they are.
 *
 * <p>A tombstone (null value) becomes a row with its coordinates and every value field null, which needs every field
 * of the value schema to be nullable; with a schema that has a required field, a tombstone is rejected with a reason
 * saying so (the engine dead-letters it).
 *
 * <p>Immutable and thread-safe.
 */
final class RowSchema {

    static final String TOPIC = "kafka_topic";
    static final String PARTITION = "kafka_partition";
    static final String OFFSET = "kafka_offset";
    static final String TIMESTAMP = "kafka_timestamp";
    static final String KEY = "kafka_key";
    static final String HEADERS = "kafka_headers";
    private static final Set<String> COLUMNS = Set.of(TOPIC, PARTITION, OFFSET, TIMESTAMP, KEY, HEADERS);
    static final String HEADER_RECORD = "io.sluice.archive.KafkaHeader";

    private static final Schema NULLABLE_STRING = Schema.createUnion(Schema.create(Schema.Type.NULL),
            Schema.create(Schema.Type.STRING));
    private static final Schema HEADER = Schema.createRecord("KafkaHeader", "A Kafka record header",
            "io.sluice.archive", false, List.of(
                    new Schema.Field("key", Schema.create(Schema.Type.STRING)),
                    new Schema.Field("value", NULLABLE_STRING, null, JsonProperties.NULL_VALUE)));

    private final Schema schema;
    private final Schema valueSchema;
    private final ValueEncoding values;
    /** The conversion of JSON values; null for Avro values. */
    private final JsonToAvro json;
    private final int valueFields;
    private final boolean keys;
    private final boolean headers;
    private final int first;
    /** Why a tombstone cannot be a row, or null when it can. */
    private final String tombstoneProblem;

    /**
     * @param values JSON, or Avro whose writer schema is {@code valueSchema}
     * @throws IllegalArgumentException when the value schema is not a record, clashes with a coordinate, or (for JSON
     *     values) is one JSON cannot be matched against
     */
    RowSchema(Schema valueSchema, ValueEncoding values, boolean keys, boolean headers) {
        if (valueSchema.getType() != Schema.Type.RECORD) {
            throw new IllegalArgumentException("the value schema must be an Avro record, not " + valueSchema.getType()
                    .getName());
        }
        this.values = values;
        this.valueSchema = valueSchema;
        this.json = values == JsonEncoding.INSTANCE ? new JsonToAvro(valueSchema) : null;
        this.valueFields = valueSchema.getFields().size();
        this.keys = keys;
        this.headers = headers;
        List<Schema.Field> fields = new ArrayList<>();
        fields.add(new Schema.Field(TOPIC, Schema.create(Schema.Type.STRING)));
        fields.add(new Schema.Field(PARTITION, Schema.create(Schema.Type.INT)));
        fields.add(new Schema.Field(OFFSET, Schema.create(Schema.Type.LONG)));
        fields.add(new Schema.Field(TIMESTAMP, LogicalTypes.timestampMillis().addToSchema(
                Schema.create(Schema.Type.LONG))));
        if (keys) {
            fields.add(new Schema.Field(KEY, NULLABLE_STRING, null, JsonProperties.NULL_VALUE));
        }
        if (headers) {
            fields.add(new Schema.Field(HEADERS, Schema.createArray(HEADER)));
        }
        this.first = fields.size();
        Set<String> named = new HashSet<>();
        namedTypes(valueSchema, named);
        if (headers && named.contains(HEADER_RECORD)) {
            throw new IllegalArgumentException("the value schema defines " + HEADER_RECORD + ", the name of the "
                    + "kafka_headers element Sluice adds; rename that type");
        }
        for (Schema.Field f : valueSchema.getFields()) {
            if (COLUMNS.contains(f.name())) {
                throw new IllegalArgumentException("the value schema has a field named " + f.name() + ", a column "
                        + "Sluice adds for the Kafka coordinates; rename the field");
            }
            fields.add(new Schema.Field(f, f.schema()));
        }
        this.schema = Schema.createRecord(valueSchema.getName(), valueSchema.getDoc(), valueSchema.getNamespace(),
                false, fields);
        Optional<String> required = valueSchema.getFields().stream().filter(f -> !f.schema().isNullable())
                .map(Schema.Field::name).findFirst();
        this.tombstoneProblem = required.map(name -> "a tombstone (null value) is archived as a row whose value "
                + "fields are all null, but the value schema's field " + name + " is not nullable; make "
                + "every field of the value schema nullable to archive tombstones").orElse(null);
    }

    private static void namedTypes(Schema s, Set<String> names) {
        switch (s.getType()) {
            case RECORD -> {
                if (names.add(s.getFullName())) {
                    s.getFields().forEach(f -> namedTypes(f.schema(), names));
                }
            }
            case ENUM, FIXED -> names.add(s.getFullName());
            case ARRAY -> namedTypes(s.getElementType(), names);
            case MAP -> namedTypes(s.getValueType(), names);
            case UNION -> s.getTypes().forEach(t -> namedTypes(t, names));
            default -> {
            }
        }
    }

    /**
     * Checks the layout's fields against the value schema when the values are JSON: they carry no schema of their own,
     * but every row must match this one, so a field it lacks (a typo such as {@code value.contry}) would be missing
     * from every record. Avro values are checked by their encoding.
     *
     * @throws InvalidFieldPathException naming the step the schema does not have
     */
    void checkFieldPaths(List<FieldPath> paths) {
        if (json != null) {
            paths.forEach(p -> AvroEncoding.checkPath(valueSchema, p));
        }
    }

    /** How the values are encoded. */
    ValueEncoding values() {
        return values;
    }

    /** Whether {@link #row} needs the value decoded (Avro values) rather than its bytes (JSON, converted here). */
    boolean decodedValues() {
        return json == null;
    }

    /** The row's schema: coordinates, then the value's fields. */
    Schema schema() {
        return schema;
    }

    /**
     * Rejects the record exactly when {@link #row} would, with the same message; a JSON value's row is not built for
     * it (a held record is checked when it arrives and converted when its file is written).
     */
    void check(ConsumerRecord<byte[], byte[]> record, ValueFields value) throws RecordRejectedException {
        if (json != null && record.value() != null && !keys && !headers) {
            json.check(record.value());
        } else {
            row(record, value);
        }
    }

    /**
     * The row of {@code record}. Nothing is written here, so a rejection leaves the file as it was.
     *
     * @param value the value decoded whole, for Avro values (see {@link #decodedValues()})
     * @throws RecordRejectedException when the value does not match the schema, is a tombstone the schema cannot
     *     hold, or the key or a header is not UTF-8 text
     */
    GenericData.Record row(ConsumerRecord<byte[], byte[]> record, ValueFields value)
            throws RecordRejectedException {
        GenericData.Record row = new GenericData.Record(schema);
        row.put(0, record.topic());
        row.put(1, record.partition());
        row.put(2, record.offset());
        row.put(3, record.timestamp());
        int next = 4;
        if (keys) {
            row.put(next++, record.key() == null ? null : text(record.key(), "the key", KEY));
        }
        if (headers) {
            List<GenericData.Record> list = new ArrayList<>();
            for (Header h : record.headers()) {
                GenericData.Record header = new GenericData.Record(HEADER);
                header.put(0, h.key());
                header.put(1, h.value() == null ? null : text(h.value(), "the header " + h.key(), HEADERS));
                list.add(header);
            }
            row.put(next, list);
        }
        if (record.value() == null) {
            if (tombstoneProblem != null) {
                throw new RecordRejectedException(tombstoneProblem);
            }
        } else if (json != null) {
            json.fill(record.value(), row, first);
        } else {
            GenericRecord decoded = ((AvroFields) value).record(); // of the value schema: decoded whole for this
            for (int i = 0; i < valueFields; i++) {
                row.put(first + i, decoded.get(i));
            }
        }
        return row;
    }

    private static String text(byte[] bytes, String what, String column) throws RecordRejectedException {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new RecordRejectedException(what + " is not UTF-8 text, and " + column + " is a string column; "
                    + "store keys and headers only for topics whose keys and headers are text");
        }
    }
}
