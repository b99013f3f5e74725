package io.sluice.storage.format;

import io.sluice.core.sink.RecordRejectedException;
import io.sluice.storage.json.JsonScan;
import java.io.IOException;
import java.io.OutputStream;
import org.apache.avro.file.CodecFactory;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Avro object container files of {@link RowSchema rows} (Kafka coordinates, then the value's fields): the schema in
 * the header, then blocks of rows, each compressed with the file's codec (null, deflate, snappy, zstandard, bzip2,
 * xz), so any Avro reader opens them without being told the schema or the codec.
 *
 * <p>Memory: one block is held until it reaches Avro's sync interval (64 KiB, uncompressed), so
 * {@link RecordWriter#bytesWritten()} lags the real size by at most that.
 *
 * <p>Immutable and thread-safe; each {@link #open} returns a writer for one thread.
 */
public final class AvroFormat implements FileFormat {

    private final RowSchema rows;
    private final CodecFactory codec;

    AvroFormat(RowSchema rows, CodecFactory codec) {
        this.rows = rows;
        this.codec = codec;
    }

    /** {@code .avro} whatever the codec: it is named in the file's header. */
    @Override
    public String extension() {
        return ".avro";
    }

    @Override
    public boolean needsJson() {
        return false; // the conversion to the schema parses the value, with errors of its own
    }

    @Override
    public RecordWriter open(OutputStream file) throws IOException {
        CountingOutputStream counted = new CountingOutputStream(file);
        DataFileWriter<GenericRecord> avro = new DataFileWriter<GenericRecord>(new GenericDatumWriter<>(rows.schema()))
                .setCodec(codec);
        avro.create(rows.schema(), counted);
        return new Writer(counted, avro);
    }

    private final class Writer implements RecordWriter {
        private final CountingOutputStream counted;
        private final DataFileWriter<GenericRecord> avro;
        private long records;

        Writer(CountingOutputStream counted, DataFileWriter<GenericRecord> avro) {
            this.counted = counted;
            this.avro = avro;
        }

        @Override
        public void write(ConsumerRecord<byte[], byte[]> record, JsonScan scan)
                throws IOException, RecordRejectedException {
            avro.append(rows.row(record)); // the row is complete before Avro sees it: a rejection writes nothing
            records++;
        }

        @Override
        public long bytesWritten() {
            return counted.count();
        }

        @Override
        public long records() {
            return records;
        }

        @Override
        public void close() throws IOException {
            avro.close(); // the last block; closing the counting stream below only flushes it
        }
    }
}
