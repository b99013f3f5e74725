package io.sluice.storage.format;

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
public final class AvroFormat extends RowFormat {

    private final CodecFactory codec;

    AvroFormat(RowSchema rows, CodecFactory codec) {
        super(rows);
        this.codec = codec;
    }

    /** {@code .avro} whatever the codec: it is named in the file's header. */
    @Override
    public String extension() {
        return ".avro";
    }

    @Override
    public RecordWriter open(OutputStream file) throws IOException {
        CountingOutputStream counted = new CountingOutputStream(file);
        DataFileWriter<GenericRecord> avro = new DataFileWriter<GenericRecord>(new GenericDatumWriter<>(rows.schema()))
                .setCodec(codec);
        avro.create(rows.schema(), counted);
        return new Writer(counted, avro);
    }

    private final class Writer extends RowWriter {
        private final CountingOutputStream counted;
        private final DataFileWriter<GenericRecord> avro;

        Writer(CountingOutputStream counted, DataFileWriter<GenericRecord> avro) {
            this.counted = counted;
            this.avro = avro;
        }

        @Override
        protected void append(GenericRecord row, ConsumerRecord<byte[], byte[]> record) throws IOException {
            avro.append(row);
        }

        @Override
        public long bytesWritten() {
            return counted.count();
        }

        @Override
        public void close() throws IOException {
            avro.close(); // the last block; closing the counting stream below only flushes it
        }
    }
}
