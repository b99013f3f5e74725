package io.sluice.storage.format;

import io.sluice.core.sink.RecordRejectedException;
import io.sluice.storage.value.FieldPath;
import io.sluice.storage.value.ValueEncoding;
import io.sluice.storage.value.ValueFields;
import io.sluice.storage.value.ValueReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * What the formats whose rows follow a {@link RowSchema} (Parquet, Avro) share: each record becomes a complete row
 * before the file's writer sees it, so a record the schema rejects leaves the file as it was.
 *
 * <p>Immutable and thread-safe; each writer is for one thread.
 */
abstract class RowFormat implements FileFormat {

    protected final RowSchema rows;

    protected RowFormat(RowSchema rows) {
        this.rows = rows;
    }

    @Override
    public final ValueEncoding valueEncoding() {
        return rows.values();
    }

    /** Avro values arrive decoded; JSON values are parsed by the conversion to the schema, with errors of its own. */
    @Override
    public final boolean decodesValues() {
        return rows.decodedValues();
    }

    /** JSON values are checked against the schema their rows must match. */
    @Override
    public final void checkFieldPaths(List<FieldPath> paths) {
        rows.checkFieldPaths(paths);
    }

    /**
     * Converts the record to its row, as a writer would, and keeps the row, Avro-encoded, as the held record's value:
     * the writer takes it back without converting the value again (a JSON value would be parsed twice), and the row
     * is smaller than the JSON it came from. Only the offset and timestamp of the record are kept beside it.
     */
    @Override
    public final ConsumerRecord<byte[], byte[]> hold(ConsumerRecord<byte[], byte[]> record, ValueFields value)
            throws RecordRejectedException {
        GenericData.Record row = rows.row(record, value);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(record.serializedValueSize() > 0
                ? record.serializedValueSize() : 64);
        BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(bytes, null);
        try {
            new GenericDatumWriter<GenericRecord>(rows.schema(), GenericData.get()).write(row, encoder);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a stream in memory
        }
        byte[] encoded = bytes.toByteArray();
        return new ConsumerRecord<>(record.topic(), record.partition(), record.offset(), record.timestamp(),
                record.timestampType(), -1, encoded.length, null, encoded, new RecordHeaders(), Optional.empty());
    }

    /** A writer of rows; subclasses hand each complete row to their file writer. */
    protected abstract class RowWriter implements RecordWriter {
        private long records;
        /** Reads back the rows {@link #hold} kept; made at the first. */
        private GenericDatumReader<GenericRecord> heldRows;
        private BinaryDecoder decoder;

        /**
         * Writes a row that matches the schema; nothing in it can be rejected any more.
         *
         * @param record the record it was made of, for writers that estimate their memory from the input's size
         */
        protected abstract void append(GenericRecord row, ConsumerRecord<byte[], byte[]> record) throws IOException;

        @Override
        public final void write(ConsumerRecord<byte[], byte[]> record, ValueFields value)
                throws IOException, RecordRejectedException {
            GenericRecord row = rows.row(record, value);
            append(row, record);
            records++;
        }

        /** The row {@link #hold} kept, decoded: converted and checked when it was held. */
        @Override
        public final void writeHeld(ConsumerRecord<byte[], byte[]> held, ValueReader values) throws IOException {
            if (heldRows == null) {
                heldRows = new GenericDatumReader<>(rows.schema(), rows.schema(), GenericData.get());
            }
            decoder = DecoderFactory.get().binaryDecoder(held.value(), decoder);
            append(heldRows.read(null, decoder), held);
            records++;
        }

        @Override
        public final long records() {
            return records;
        }
    }
}
