package io.sluice.storage.format;

import io.sluice.core.sink.RecordRejectedException;
import io.sluice.storage.value.FieldPath;
import io.sluice.storage.value.ValueEncoding;
import io.sluice.storage.value.ValueFields;
import java.io.IOException;
import java.util.List;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;

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

    /** JSON values: converted to the row whole, which rejects what is not JSON. */
    @Override
    public final boolean parsesValues() {
        return !rows.decodedValues();
    }

    /** JSON values are checked against the schema their rows must match. */
    @Override
    public final void checkFieldPaths(List<FieldPath> paths) {
        rows.checkFieldPaths(paths);
    }

    /** Rejects what a writer would reject, without keeping the row. */
    @Override
    public final void check(ConsumerRecord<byte[], byte[]> record, ValueFields value) throws RecordRejectedException {
        rows.check(record, value);
    }

    /** A writer of rows; subclasses hand each complete row to their file writer. */
    protected abstract class RowWriter implements RecordWriter {
        private long records;

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

        @Override
        public final long records() {
            return records;
        }
    }
}
