package io.sluice.storage.format;

import io.sluice.core.sink.RecordRejectedException;
import io.sluice.storage.json.JsonScan;
import java.io.IOException;
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
    public final boolean needsJson() {
        return false; // the conversion to the schema parses the value, with errors of its own
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
        public final void write(ConsumerRecord<byte[], byte[]> record, JsonScan scan)
                throws IOException, RecordRejectedException {
            GenericRecord row = rows.row(record);
            append(row, record);
            records++;
        }

        @Override
        public final long records() {
            return records;
        }
    }
}
