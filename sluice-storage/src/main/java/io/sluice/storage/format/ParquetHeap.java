package io.sluice.storage.format;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.LongStream;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * The heap an open Parquet writer holds besides the data it reports ({@code ParquetWriter.getDataSize()}: the
 * compressed pages of the row group and the current pages' raw values). That data is all parquet-java counts, yet
 * with many small open files the rest is most of the heap: at parquet-java's default 1 MiB pages, a writer of 7
 * columns holding 20 rows (5 KiB of data) held 1,170 KiB, and a thousand such files ran a 512 MB heap out.
 *
 * <p>Measured with parquet-avro 1.18.1 on JDK 17 by opening N writers (N = 10 to 500) on a discarding stream, writing
 * rows to each, and comparing the heap live after a full collection (serial collector) before and after, per writer;
 * the figures do not depend on N. What a writer holds, and how it is counted here:
 *
 * <ul>
 *   <li><b>Per column, from the first row</b>: the column's writers and its encoders' first slabs, 2 to 4 KiB
 *       (counted {@value #PER_COLUMN} bytes), plus for a dictionary-encoded column the dictionary's first list of
 *       ids, 14.5 to 16.3 KiB (counted {@value #PER_DICTIONARY_COLUMN}). Not tied to the page size (8 KiB to 1 MiB
 *       pages changed it by less than 1 KiB).
 *   <li><b>The compressor's output buffer</b>: parquet-java's {@code CodecFactory} allocates one of the page size per
 *       writer, up front, for every codec (1,042 KiB of the 1,170 above; 64 KiB at 64 KiB pages); lz4_raw holds
 *       16 KiB more. Counted: the page size plus {@value #PER_COMPRESSOR} bytes, for every codec but none and zstd,
 *       whose pages {@link ZstdPages} compresses with pooled buffers, whatever the files open.
 *   <li><b>Dictionaries</b>, kept from a column's first page to the end of the row group even once the column falls
 *       back to plain encoding, and not in {@code getDataSize()}. A full dictionary holds 4.5 to 8 times its page
 *       limit on the heap (hash-map slots, and an object per string): at a 16 KiB limit, 130 KiB for distinct ints,
 *       80 KiB for longs, 73 KiB for 7-character strings, 22 KiB for 45-character ones; at a 64 KiB limit, 340 to
 *       915 KiB. Counted per dictionary column as if every row brought a new value: per row 32 bytes for ints and
 *       floats, 40 for longs and doubles, 64 for strings and bytes (measured per entry: 32, 40, 49 to 61), up to 8,
 *       5 and 8 times the dictionary page limit. Low-cardinality columns hold far less than that, so this
 *       over-counts them by up to the cap: the memory limit then rolls a little early, never late. Distinct strings
 *       of one or two characters can hold up to 16 times the limit. The Kafka coordinates are never
 *       dictionary-encoded ({@link ParquetFormat}) and count no dictionary.
 *   <li><b>Page indexes</b>: per page written in the row group, its compressed bytes' buffer object, its truncated
 *       minimum and maximum for the column index and its offset index entries: about 240 bytes measured (about 300
 *       for strings, whose statistics are truncated to 64 bytes), counted {@value #PER_PAGE} bytes. Pages are
 *       estimated from the records' serialized size (a page ends at the page size of raw values) and from
 *       parquet-java's limit of {@value #PAGE_ROW_LIMIT} rows per page.
 * </ul>
 *
 * <p>Checked against the same measurement, writers of the coordinates and {@code {k string, i int, text string}} with
 * zstd, 64 KiB pages and 16 KiB dictionaries (held on the heap / counted here): 20 rows 138 / 164 KiB; 2,000 rows
 * 274–349 / 623–628 KiB (low and high cardinality); 20,000 rows 495–581 / 812–870 KiB; 300,000 rows 1,935–2,418 /
 * 2,537–2,997 KiB; with 10 more columns of distinct ints, 100,000 rows 5,100 / 5,618 KiB. So the count is above the
 * heap by 10 to 130%, the most where the dictionaries' cap is reached but they hold little. Value schemas of lists
 * count a list's values as one per row, so long lists of new values are under-counted.
 *
 * <p>Immutable and thread-safe.
 */
final class ParquetHeap {

    static final long PER_COLUMN = 4 << 10;
    static final long PER_DICTIONARY_COLUMN = 16 << 10;
    static final long PER_COMPRESSOR = 16 << 10;
    static final long PER_PAGE = 512;
    /** parquet-java's default limit of rows per page ({@code ParquetProperties.DEFAULT_PAGE_ROW_COUNT_LIMIT}). */
    static final long PAGE_ROW_LIMIT = 20_000;

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
            if (!ParquetFormat.PLAIN_COLUMNS.contains(column.getPath()[0])) {
                Dictionary.of(column.getPrimitiveType().getPrimitiveTypeName()).ifPresent(dictionaries::add);
            }
        }
        this.entryBytes = dictionaries.stream().mapToLong(Dictionary::entryBytes).toArray();
        this.dictionaryCaps = dictionaries.stream().mapToLong(d -> (long) d.heapFactor() * dictionaryPageBytes)
                .toArray();
        // zstd pages are compressed with pooled buffers (ZstdPages), not by a codec of the writer's own
        boolean ownCompressor = codec != CompressionCodecName.UNCOMPRESSED && codec != CompressionCodecName.ZSTD;
        this.fixed = columns * PER_COLUMN + dictionaries.size() * PER_DICTIONARY_COLUMN
                + (ownCompressor ? pageBytes + PER_COMPRESSOR : 0);
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
