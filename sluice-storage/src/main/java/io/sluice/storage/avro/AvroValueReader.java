package io.sluice.storage.avro;

import io.sluice.core.sink.RecordRejectedException;
import io.sluice.storage.value.ValueFields;
import io.sluice.storage.value.ValueReader;
import java.io.EOFException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.ResolvingDecoder;

/**
 * Decodes Avro values, plain or in the Confluent wire format, with one reused decoder, and says precisely where a
 * value stops being Avro of the schema: the field being read, the byte position in the value, and what was found.
 *
 * <p>Threading: one thread at a time.
 */
final class AvroValueReader implements ValueReader {

    /** The Confluent wire format's header: the magic byte 0, then a 4-byte big-endian schema id. */
    static final int CONFLUENT_HEADER = 5;

    private final AvroEncoding encoding;
    private final FieldTrackingReader reader;
    private final AvroPath[] paths;
    private final BoundedDecoder decoder = new BoundedDecoder();

    AvroValueReader(AvroEncoding encoding, Schema readerSchema, AvroPath[] paths) {
        this.encoding = encoding;
        this.reader = new FieldTrackingReader(encoding.schema(), readerSchema);
        this.paths = paths;
    }

    @Override
    public ValueFields read(byte[] value) throws RecordRejectedException {
        int start = 0;
        String schemaId = "";
        if (encoding.confluent()) {
            checkConfluentHeader(value);
            int id = ((value[1] & 0xFF) << 24) | ((value[2] & 0xFF) << 16) | ((value[3] & 0xFF) << 8)
                    | (value[4] & 0xFF);
            schemaId = " (its schema id is " + id + "; every value is read with the configured schema)";
            start = CONFLUENT_HEADER;
        }
        decoder.reset(value, start);
        reader.fields.clear();
        GenericRecord record;
        try {
            record = reader.read(null, decoder);
            if (decoder.remaining() > 0) {
                throw reject("the record ends at byte " + decoder.position() + ", but the value has " + value.length
                        + " bytes", schemaId);
            }
        } catch (EOFException e) {
            throw reject("it ends (" + value.length + " bytes) inside " + field(), schemaId);
        } catch (IOException | RuntimeException e) {
            throw reject(field() + " at byte " + position() + ": " + found(e), schemaId);
        }
        return new AvroFields(record, paths);
    }

    private void checkConfluentHeader(byte[] value) throws RecordRejectedException {
        if (value.length < CONFLUENT_HEADER) {
            throw new RecordRejectedException("the value is not in the Confluent wire format: it has " + value.length
                    + " bytes, fewer than the format's 5-byte header (the magic byte 0 and a 4-byte schema id)");
        }
        if (value[0] != 0) {
            throw new RecordRejectedException(String.format("the value is not in the Confluent wire format: it starts "
                    + "with byte 0x%02X, not the magic byte 0 (plain Avro is value encoding avro)", value[0] & 0xFF));
        }
    }

    private RecordRejectedException reject(String problem, String schemaId) {
        return new RecordRejectedException("the value is not Avro of the schema " + encoding.schema().getFullName()
                + ": " + problem + schemaId + "; was it written with another schema?");
    }

    private String field() {
        return reader.fields.isEmpty() ? "the record" : "field '" + String.join(".", reader.fields) + "'";
    }

    private String position() {
        try {
            return Integer.toString(decoder.position());
        } catch (IOException e) {
            return "?";
        }
    }

    private static String found(Exception e) {
        if (e instanceof ArrayIndexOutOfBoundsException) {
            return "an index out of range (of a union's branches or an enum's symbols): " + e.getMessage();
        }
        return e.getMessage();
    }

    /** Keeps the path of the field being read, so that a failure can name it. */
    private static final class FieldTrackingReader extends GenericDatumReader<GenericRecord> {
        final List<String> fields = new ArrayList<>();

        FieldTrackingReader(Schema writer, Schema reader) {
            super(writer, reader);
        }

        @Override
        protected void readField(Object record, Schema.Field field, Object oldDatum, ResolvingDecoder in,
                Object state) throws IOException {
            fields.add(field.name());
            super.readField(record, field, oldDatum, in, state);
            fields.remove(fields.size() - 1);
        }

        /** A garbled count must not size the array: items take at least a byte each, bar absurd schemas. */
        @Override
        protected Object newArray(Object old, int size, Schema schema) {
            return super.newArray(old, Math.min(size, 1024), schema);
        }

        @Override
        protected Object newMap(Object old, int size) {
            return super.newMap(old, Math.min(size, 1024));
        }
    }
}
