package io.sluice.storage.format;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.LongStream;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * The heap an open Parquet writer holds besides the data it reports ({@code ParquetWriter.getDataSize()}: the
 * compressed pages of the row group and the current pages' raw values). That data is all parquet-java counts, yet
 * with many small open files the rest is most of the heap: with the old default of 1 MiB pages, a writer of 7 columns
 * holding 20 rows (about 5 KiB of data) held 1,170 KiB, and a thousand such files ran a 512 MB heap out.
 *
 * <p>Measured with parquet-avro 1.18.1 on JDK 17 by opening N writers (N = 10 to 200) on a discarding stream, writing
 * rows to each, and comparing the heap live after a full collection (serial collector) before and after, per writer;
 * the figures do not depend on N. What a writer holds, and how it is counted here:
 *
 * <ul>
 *   <li><b>Per column, from the first row</b>: the column's writers, its level and value encoders' first slabs, and
 *       for a dictionary column the dictionary's first list of ids (16 KiB). Measured 13.5 KiB per column without
 *       dictionaries, 18–20 KiB with; counted {@value #PER_COLUMN} bytes per leaf column. Not tied to the page size
 *       (8 KiB to 1 MiB pages changed it by less than 1 KiB).
 *   <li><b>The compressor's output buffer</b>: parquet's {@code CodecFactory} allocates one of the page size per
 *       writer, up front, whatever the codec (1,042 KiB of the 1,170 above; 64 KiB at 64 KiB pages); lz4_raw holds
 *       16 KiB more. Counted: the page size plus {@value #PER_COMPRESSOR} bytes, for every codec but none.
 *   <li><b>Dictionaries</b>, kept from a column's first page to the end of the row group even once the column falls
 *       back to plain encoding, and not in {@code getDataSize()}. A full dictionary holds 4.5 to 8 times its page
 *       limit on the heap (hash-map slots, and an object per string): at a 16 KiB limit, 130 KiB for distinct ints,
 *       80 KiB for longs, 73 KiB for 7-character strings, 22 KiB for 45-character ones; at a 64 KiB limit, 340 to
 *       915 KiB. Counted per dictionary column as if every row brought a new value: per row 32 bytes for ints and
 *       floats, 40 for longs and doubles, 64 for strings and bytes (measured per entry: 32, 40, 49 to 61), up to 8,
 *       5 and 8 times the dictionary page limit. Low-cardinality columns hold far less than that, so this
 *       over-counts them by up to the cap: the memory limit then rolls a little early, never late. Distinct strings
 *       of one or two characters can hold up to 16 times the limit. Columns constant in a file (the topic and
 *       partition) and {@code kafka_offset}, whose dictionary is turned off (every value is new), count nothing.
 *   <li><b>Page indexes</b>: per page written in the row group, its compressed bytes' buffer object, its truncated
 *       minimum and maximum for the column index and its offset index entries: about 240 bytes measured (at most about
 *       300 for strings, truncated to 64 bytes), counted {@value #PER_PAGE} bytes. Pages are estimated from the records' serialized size (a page ends at the page size
 *       of raw values) and from Parquet's limit of {@value #PAGE_ROW_LIMIT} rows per page.
 * </ul>
 *
 * <p>Checked against the same measurement (7 columns, zstd, 64 KiB pages, 16 KiB dictionaries): 20 rows held
 * 187 KiB, counted 230 KiB; 20,000 rows of distinct values held 686 KiB, counted 1,040 KiB; 300,000 rows held
 * 2,490 KiB, counted 2,730 KiB. Value schemas of lists count a list's values as one per row, so long lists of new
 * values are under-counted.
 *
 * <p>Immutable and thread-safe.
 */
final class ParquetHeap {

    static final long PER_COLUMN = 20 << 10;
    static final long PER_COMPRESSOR = 16 << 10;
    static final long PER_PAGE = 512;
    /** parquet-java's default limit of rows per page ({@code ParquetProperties.DEFAULT_PAGE_ROW_COUNT_LIMIT}). */
    static final long PAGE_ROW_LIMIT = 20_000;
    /** Columns whose dictionary stays at one entry (a file holds one partition) or is turned off. */
    private static final Set<String> NO_DICTIONARY = Set.of(RowSchema.TOPIC, RowSchema.PARTITION, RowSchema.OFFSET);

    private final int pageBytes;
    private final int columns;
    /** Per dictionary column: its heap per entry, and the most its full dictionary holds. */
    private final long[] entryBytes;
    private final long[] dictionaryCaps;
    private final long fixed;

    ParquetHeap(MessageType schema, CompressionCodecName codec, int pageBytes, int dictionaryPageBytes) {
        this.pageBytes = pageBytes;
        this.columns = schema.getColumns().size();
        List<Dictionary> dictionaries = new ArrayList<>();
        for (ColumnDescriptor column : schema.getColumns()) {
            if (!NO_DICTIONARY.contains(column.getPath()[0])) {
                Dictionary.of(column.getPrimitiveType().getPrimitiveTypeName()).ifPresent(dictionaries::add);
            }
        }
        this.entryBytes = dictionaries.stream().mapToLong(Dictionary::entryBytes).toArray();
        this.dictionaryCaps = dictionaries.stream().mapToLong(d -> (long) d.heapFactor() * dictionaryPageBytes)
                .toArray();
        boolean compressed = codec != CompressionCodecName.UNCOMPRESSED;
        this.fixed = columns * PER_COLUMN + (compressed ? pageBytes + PER_COMPRESSOR : 0);
    }

    /** Held from the file's first row to its close, whatever it holds. */
    long fixed() {
        return fixed;
    }

    /** The most the dictionaries of one row group are counted. */
    long dictionaryCap() {
        return LongStream.of(dictionaryCaps).sum();
    }

    /**
     * What grows with the row group being written: its dictionaries and page indexes.
     *
     * @param rows the rows of the row group so far
     * @param sourceBytes their records' serialized size (keys and values)
     */
    long growing(long rows, long sourceBytes) {
        long dictionaries = 0;
        for (int i = 0; i < entryBytes.length; i++) {
            dictionaries += Math.min(rows * entryBytes[i], dictionaryCaps[i]);
        }
        long pages = sourceBytes / pageBytes + columns * (rows / PAGE_ROW_LIMIT); // pages written, not begun
        return dictionaries + pages * PER_PAGE;
    }

    /** A dictionary's heap by the column's type (measured; see the class comment). */
    private record Dictionary(long entryBytes, int heapFactor) {
        static Optional<Dictionary> of(PrimitiveTypeName type) {
            return switch (type) {
                case BOOLEAN -> Optional.empty(); // never dictionary-encoded
                case INT32, FLOAT -> Optional.of(new Dictionary(32, 8));
                case INT64, DOUBLE -> Optional.of(new Dictionary(40, 5));
                case BINARY, FIXED_LEN_BYTE_ARRAY, INT96 -> Optional.of(new Dictionary(64, 8));
            };
        }
    }
}
