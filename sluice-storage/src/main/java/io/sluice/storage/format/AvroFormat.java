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

    /**
     * The heap an open writer holds, measured (200 open writers of 1 KB log lines, retained heap after a full GC):
     * 123–144 KiB with the null codec, up to 208 KiB with a codec that keeps a block-sized output buffer between
     * blocks. Avro allocates its block buffer (1.25 × the 64,000-byte sync interval) and a stream buffer when the file
     * is created, so the heap is there from the first row; the larger figure of each range is reported.
     */
    static final long UNCOMPRESSED_WRITER_HEAP = 144 * 1024;
    static final long COMPRESSING_WRITER_HEAP = 208 * 1024;

    private final CodecFactory codec;
    private final long writerHeap;

    /** @param codec one of Avro's codec names, as {@link CodecFactory#fromString} takes them */
    AvroFormat(RowSchema rows, String codec) {
        super(rows);
        this.codec = CodecFactory.fromString(codec);
        this.writerHeap = codec.equals("null") ? UNCOMPRESSED_WRITER_HEAP : COMPRESSING_WRITER_HEAP;
    }

    /** Avro's block and stream buffers, there from the file's first row. */
    @Override
    public long heapPerOpenFile() {
        return writerHeap;
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
        private boolean closed;

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

        /** Avro's own buffers (see {@link #COMPRESSING_WRITER_HEAP}): what counts when many files are open. */
        @Override
        public long bufferedBytes() {
            return closed ? 0 : writerHeap;
        }

        @Override
        public void close() throws IOException {
            closed = true;
            avro.close(); // the last block; closing the counting stream below only flushes it
        }
    }
}
