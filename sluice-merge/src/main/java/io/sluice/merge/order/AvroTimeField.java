package io.sluice.merge.order;

import java.io.IOException;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.List;
import org.apache.avro.LogicalType;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.DecoderFactory;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * The event time from a field of an Avro value written with a known schema, plain Avro binary or in the Confluent
 * framing (a zero byte and a four-byte schema ID before the Avro bytes). The field may be a long or int of epoch
 * milliseconds, a {@code timestamp-millis} or {@code timestamp-micros} long, or ISO-8601 text; the path is checked
 * against the schema when the configuration is built, so a misspelt field is refused before the first record.
 *
 * <p>The schema must be the one the values were written with (Avro binary carries no field names): a value written
 * with another reads as garbage or fails, and becomes a dead letter with the reason.
 *
 * <p>Threading: any thread (each call decodes with its own decoder).
 */
final class AvroTimeField implements EventTime {

    private static final int FRAMING = 5;

    private final Schema schema;
    private final List<String> path;
    private final boolean framed;
    private final String spec;
    private final LogicalType logicalType;

    AvroTimeField(Schema schema, String fieldPath, boolean framed) {
        this.schema = schema;
        this.path = List.of(fieldPath.split("\\."));
        this.framed = framed;
        this.spec = "value." + fieldPath + " (" + (framed ? "Confluent-framed " : "") + "Avro)";
        if (schema.getType() != Schema.Type.RECORD) {
            throw new IllegalArgumentException("order-by value." + fieldPath + " needs an Avro record schema, not "
                    + schema.getType().getName());
        }
        Schema at = schema;
        for (int i = 0; i < path.size(); i++) {
            Schema.Field field = nonNull(at).getField(path.get(i));
            if (field == null) {
                throw new IllegalArgumentException("order-by value." + fieldPath + ": the schema's record '"
                        + nonNull(at).getName() + "' has no field '" + path.get(i) + "' (it has " + nonNull(at)
                        .getFields().stream().map(Schema.Field::name).toList() + ")");
            }
            at = field.schema();
        }
        Schema leaf = nonNull(at);
        if (leaf.getType() != Schema.Type.LONG && leaf.getType() != Schema.Type.INT
                && leaf.getType() != Schema.Type.STRING) {
            throw new IllegalArgumentException("order-by value." + fieldPath + " is a " + leaf.getType().getName()
                    + " in the schema: expected a long or int of epoch milliseconds (or timestamp-millis/-micros), "
                    + "or ISO-8601 text");
        }
        this.logicalType = leaf.getLogicalType();
    }

    /** A union with null ("optional") stands for its other branch. */
    private static Schema nonNull(Schema s) {
        if (s.getType() == Schema.Type.UNION) {
            return s.getTypes().stream().filter(t -> t.getType() != Schema.Type.NULL).findFirst().orElse(s);
        }
        return s;
    }

    @Override
    public String describe() {
        return "value." + String.join(".", path);
    }

    @Override
    public long of(ConsumerRecord<byte[], byte[]> record) throws EventTimeException {
        byte[] value = record.value();
        if (value == null) {
            throw new EventTimeException("no value (a tombstone): " + spec + " needs an Avro record");
        }
        int offset = 0;
        if (framed) {
            if (value.length < FRAMING || value[0] != 0) {
                throw new EventTimeException("the value is not in the Confluent framing (a zero byte and a schema ID "
                        + "before the Avro bytes): " + spec + " needs it");
            }
            offset = FRAMING;
        }
        GenericRecord decoded;
        try {
            decoded = new GenericDatumReader<GenericRecord>(schema).read(null,
                    DecoderFactory.get().binaryDecoder(value, offset, value.length - offset, null));
        } catch (IOException | RuntimeException e) {
            throw new EventTimeException("the value does not decode with the configured schema (" + e.getMessage()
                    + "): " + spec + " needs values written with that schema");
        }
        Object at = decoded;
        for (String name : path) {
            if (!(at instanceof GenericRecord r)) {
                throw new EventTimeException(spec + " is null");
            }
            at = r.get(name);
        }
        if (at instanceof Long l) {
            return logicalType instanceof LogicalTypes.TimestampMicros ? l / 1_000 : l;
        }
        if (at instanceof Integer i) {
            return i;
        }
        if (at instanceof CharSequence text) {
            try {
                return OffsetDateTime.parse(text).toInstant().toEpochMilli();
            } catch (DateTimeParseException e) {
                throw new EventTimeException(spec + " is '" + text + "': expected ISO-8601 time with an offset");
            }
        }
        throw new EventTimeException(spec + " is null");
    }
}
