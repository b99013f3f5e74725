package io.sluice.storage.format;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Set;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.parquet.avro.AvroParquetWriter;
import org.apache.parquet.avro.AvroSchemaConverter;
import org.apache.parquet.avro.AvroWriteSupport;
import org.apache.parquet.conf.ParquetConfiguration;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.TypeUtil;

/**
 * Parquet files of {@link RowSchema rows} (Kafka coordinates, then the value's fields), written with parquet-avro
 * straight to the backend's stream.
 *
 * <p>Memory: Parquet holds a whole row group in memory, encoded and compressed page by page, until it reaches
 * {@code rowGroupBytes}; then it writes the group out. {@link RecordWriter#bufferedBytes()} reports that held data
 * plus what the writer holds besides ({@link ParquetHeap}: per-column buffers, the compressor's page-sized buffer,
 * dictionaries, page indexes), so the sink counts the real heap against its limit and the engine's memory budget.
 * {@link RecordWriter#bytesWritten()} is the bytes written plus the held data scaled by the compression earlier row
 * groups showed, so size rolling sees a file grow before its first row group is out.
 *
 * <p>Pages are small by default (64 KiB, 16 KiB dictionaries, {@link FormatConfig}): Parquet allocates a page-sized
 * buffer per open file up front and keeps each column's dictionary until the row group ends, so with many open files
 * the page sizes, not the data, decide the heap. The Kafka coordinates are never dictionary-encoded: every offset is
 * new, timestamps mostly are, and the topic and partition are one value per file, which plain encoding and the codec
 * store as well (measured: the same file size within 0.1%), while each dictionary costs 16 KiB of heap from the first
 * row. The other columns try a dictionary unless the files before gave theirs up ({@link DictionaryChoice}).
 *
 * <p>Lists use Parquet's standard three-level structure (what DuckDB, Spark and Arrow expect), not parquet-avro's
 * old two-level default.
 *
 * <p>Immutable and thread-safe; each {@link #open} returns a writer for one thread.
 */
public final class ParquetFormat extends RowFormat {

    /** The columns written without a dictionary (see the class comment). */
    static final Set<String> PLAIN_COLUMNS = Set.of(RowSchema.TOPIC, RowSchema.PARTITION, RowSchema.OFFSET,
            RowSchema.TIMESTAMP);

    private final CompressionCodecName codec;
    private final long rowGroupBytes;
    private final int pageBytes;
    private final int dictionaryPageBytes;
    /** What each open writer holds besides its data; package-private for the tests. */
    final ParquetHeap heap;
    /** Which columns try a dictionary, from the files before; package-private for the tests. */
    final DictionaryChoice dictionaries;

    ParquetFormat(RowSchema rows, CompressionCodecName codec, long rowGroupBytes, int pageBytes,
            int dictionaryPageBytes) {
        super(rows);
        this.codec = codec;
        this.rowGroupBytes = rowGroupBytes;
        this.pageBytes = pageBytes;
        this.dictionaryPageBytes = dictionaryPageBytes;
        MessageType columns;
        try {
            columns = new AvroSchemaConverter(configuration()).convert(rows.schema());
            // what the writer would refuse at its first file (an empty group), refused now
            TypeUtil.checkValidWriteSchema(columns);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("the value schema cannot be written as Parquet: " + e.getMessage(), e);
        }
        this.heap = new ParquetHeap(columns, codec, pageBytes, dictionaryPageBytes);
        this.dictionaries = new DictionaryChoice(columns, PLAIN_COLUMNS);
    }

    /**
     * What a writer holds from its first row, whatever it holds ({@link ParquetHeap#fixed()}): with tens of columns,
     * hundreds of KiB, many times the rows a scattered directory gathers between rolls.
     */
    @Override
    public long heapPerOpenFile() {
        return heap.fixed();
    }

    /** {@code .parquet}, with the codec in front as Spark names them: {@code .zstd.parquet}, {@code .snappy.parquet}. */
    @Override
    public String extension() {
        return switch (codec) {
            case UNCOMPRESSED -> ".parquet";
            case SNAPPY -> ".snappy.parquet";
            case GZIP -> ".gz.parquet";
            case ZSTD -> ".zstd.parquet";
            case LZ4_RAW -> ".lz4raw.parquet";
            default -> throw new IllegalStateException("not a codec Sluice writes: " + codec);
        };
    }

    @Override
    public RecordWriter open(OutputStream file) throws IOException {
        CountingOutputStream counted = new CountingOutputStream(file);
        AvroParquetWriter.Builder<GenericRecord> builder = AvroParquetWriter.<GenericRecord>builder(
                        new StreamOutputFile(counted))
                .withConf(configuration())
                .withSchema(rows.schema())
                .withDataModel(GenericData.get())
                .withCompressionCodec(codec)
                .withRowGroupSize(rowGroupBytes)
                .withPageSize(pageBytes)
                .withDictionaryPageSize(dictionaryPageBytes);
        if (codec == CompressionCodecName.ZSTD) {
            builder.withCodecFactory(ZstdPages.FACTORY);
        }
        PLAIN_COLUMNS.forEach(column -> builder.withDictionaryEncoding(column, false));
        Set<String> plain = dictionaries.plainColumns();
        plain.forEach(column -> builder.withDictionaryEncoding(column, false));
        ParquetWriter<GenericRecord> parquet = builder.build();
        return new Writer(counted, parquet, plain);
    }

    private static ParquetConfiguration configuration() {
        PlainParquetConfiguration conf = new PlainParquetConfiguration();
        conf.setBoolean(AvroWriteSupport.WRITE_OLD_LIST_STRUCTURE, false);
        return conf;
    }

    private final class Writer extends RowWriter {
        /** Rows between two of Parquet's estimates of the data it holds. */
        private static final int ESTIMATE_EVERY_ROWS = 16;

        private final CountingOutputStream counted;
        private final ParquetWriter<GenericRecord> parquet;
        /** The columns this file writes plain as {@link #dictionaries} chose, besides the coordinates. */
        private final Set<String> plain;
        private boolean closed;
        /** Bytes out as of the last write, and in all row groups out, against what they weighed held. */
        private long lastFlushed;
        private long flushedTotal;
        private long heldTotal;
        /**
         * Parquet's last estimate of the data it holds (taken every {@link #ESTIMATE_EVERY_ROWS} rows and at each row
         * group's start: it walks every column), and that estimate plus the records written since: what the size and
         * memory reports use, since nothing changes between writes.
         */
        private long lastEstimated;
        private long lastHeld;
        /** The row group being written: its rows and their records' serialized size, for {@link ParquetHeap}. */
        private long groupRows;
        private long groupSourceBytes;
        private long lastHeap;

        Writer(CountingOutputStream counted, ParquetWriter<GenericRecord> parquet, Set<String> plain) {
            this.counted = counted;
            this.parquet = parquet;
            this.plain = plain;
            this.lastFlushed = counted.count();
            this.lastHeap = heap.fixed();
        }

        @Override
        protected void append(GenericRecord row, ConsumerRecord<byte[], byte[]> record) throws IOException {
            parquet.write(row);
            groupRows++;
            int recordBytes = length(record.key()) + length(record.value());
            groupSourceBytes += recordBytes;
            long flushed = counted.count();
            if (flushed > lastFlushed) { // this row completed a row group, which went out with it
                flushedTotal += flushed - lastFlushed;
                heldTotal += lastEstimated; // what Parquet said, not the records' bytes since: a ratio of its sizes
                lastFlushed = flushed;
                groupRows = 0;
                groupSourceBytes = 0;
            }
            // Parquet's estimate walks every column (2.5% of a 40-column archive's CPU when taken per row): between
            // two estimates a row counts as its record's bytes, near what its encoded columns add (JSON text is
            // mostly longer; numbers stored in 8 bytes can be shorter), and the next estimate puts it right
            if (groupRows % ESTIMATE_EVERY_ROWS == 0) {
                lastEstimated = held();
                lastHeld = lastEstimated;
            } else {
                lastHeld += recordBytes;
            }
            lastHeap = heap.fixed() + heap.growing(groupRows, groupSourceBytes);
        }

        private static int length(byte[] bytes) {
            return bytes == null ? 0 : bytes.length;
        }

        /** What Parquet holds in memory: its estimate of the data size, less what already reached the stream. */
        private long held() {
            return Math.max(0, parquet.getDataSize() - counted.count());
        }

        /**
         * Bytes out, plus the held bytes scaled by how much earlier row groups shrank when they went out (Parquet's
         * estimate counts much of a row group before compression); unscaled until the first row group is out.
         */
        @Override
        public long bytesWritten() {
            if (closed) {
                return counted.count();
            }
            double shrink = heldTotal == 0 ? 1.0 : Math.min(1.0, (double) flushedTotal / heldTotal);
            return counted.count() + (long) (lastHeld * shrink);
        }

        /** The held data plus the rest of the writer's heap ({@link ParquetHeap}). */
        @Override
        public long bufferedBytes() {
            return closed ? 0 : lastHeld + lastHeap;
        }

        @Override
        public void close() throws IOException {
            if (!closed) {
                closed = true;
                parquet.close(); // the last row group and the footer
                dictionaries.learn(plain, parquet.getFooter());
            }
        }
    }
}
