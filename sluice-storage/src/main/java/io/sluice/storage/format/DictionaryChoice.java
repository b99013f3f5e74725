package io.sluice.storage.format;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.EncodingStats;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * Which columns a new Parquet file tries to dictionary-encode, learnt from the files written before it.
 *
 * <p>Why: parquet-java starts every column with a dictionary and gives it up when it grows past its page limit or
 * does not pay at the first page; a column whose values seldom repeat (ids, times, messages) gives it up, after every
 * value was hashed into it, and is written again plain. In a large file that is the first page's work; in the small
 * files of a scattered layout (a few hundred rows each) the first page is the file, so it is repeated for every value
 * of every file: a quarter of the archive lanes' samples in the 48-hour Parquet benchmark. The files are the same
 * either way (the values end in plain pages), so a column whose dictionary was given up in the last
 * {@value #GIVE_UP_AFTER} files that tried it is written plain from the start; every {@value #RETRY_EVERY}th file
 * tries it again, so a column whose values start repeating gets its dictionary back. A file that held fewer than
 * {@value #MIN_VALUES} values of a column says nothing of it: a dictionary of a handful of values never pays.
 *
 * <p>Threading: thread-safe; every lane's files of one format ask and report here, without locks.
 */
final class DictionaryChoice {

    static final int GIVE_UP_AFTER = 3;
    static final int RETRY_EVERY = 32;
    static final long MIN_VALUES = 64;

    /** Dotted paths of the columns a dictionary is tried for: not the never-encoded ones. */
    private final List<String> columns = new ArrayList<>();
    private final Map<String, Integer> index = new HashMap<>();
    /** Per column: files in a row, up to {@link #GIVE_UP_AFTER}, that tried the dictionary and gave it up. */
    private final AtomicIntegerArray givenUp;
    /** Per column given up: files opened since, for the retries. */
    private final AtomicIntegerArray sinceGivenUp;

    /**
     * @param schema the files' columns
     * @param neverEncoded top-level fields written without a dictionary whatever happens
     */
    DictionaryChoice(MessageType schema, Set<String> neverEncoded) {
        for (ColumnDescriptor column : schema.getColumns()) {
            // booleans are never dictionary-encoded by parquet-java
            if (!neverEncoded.contains(column.getPath()[0])
                    && column.getPrimitiveType().getPrimitiveTypeName() != PrimitiveTypeName.BOOLEAN) {
                index.put(String.join(".", column.getPath()), columns.size());
                columns.add(String.join(".", column.getPath()));
            }
        }
        givenUp = new AtomicIntegerArray(columns.size());
        sinceGivenUp = new AtomicIntegerArray(columns.size());
    }

    /** The columns the next file writes plain from its first row; it reports them back to {@link #learn}. */
    Set<String> plainColumns() {
        Set<String> plain = new HashSet<>();
        for (int i = 0; i < columns.size(); i++) {
            if (givenUp.get(i) >= GIVE_UP_AFTER && sinceGivenUp.incrementAndGet(i) % RETRY_EVERY != 0) {
                plain.add(columns.get(i));
            }
        }
        return plain;
    }

    /**
     * Learns from a closed file which of the columns it tried kept their dictionary.
     *
     * @param plain what {@link #plainColumns} gave the file
     * @param footer the file's footer, as its writer returns it once closed
     */
    void learn(Set<String> plain, ParquetMetadata footer) {
        Map<String, Judgement> judged = new HashMap<>();
        for (BlockMetaData rowGroup : footer.getBlocks()) {
            for (ColumnChunkMetaData chunk : rowGroup.getColumns()) {
                String path = chunk.getPath().toDotString();
                if (index.containsKey(path) && !plain.contains(path)) {
                    judged.computeIfAbsent(path, p -> new Judgement()).add(chunk);
                }
            }
        }
        judged.forEach((path, judgement) -> {
            int i = index.get(path);
            if (judgement.kept) {
                givenUp.set(i, 0);
                sinceGivenUp.set(i, 0);
            } else if (judgement.values >= MIN_VALUES) {
                givenUp.updateAndGet(i, n -> Math.min(n + 1, GIVE_UP_AFTER));
            }
        });
    }

    /** One column's row groups in a file: whether any page was dictionary-encoded, and its values beside nulls. */
    private static final class Judgement {
        boolean kept;
        long values;

        void add(ColumnChunkMetaData chunk) {
            EncodingStats encodings = chunk.getEncodingStats();
            Statistics<?> statistics = chunk.getStatistics();
            if (encodings == null || statistics == null || !statistics.isNumNullsSet()) {
                return; // nothing to judge by
            }
            kept |= encodings.hasDictionaryEncodedPages();
            values += chunk.getValueCount() - statistics.getNumNulls();
        }
    }
}
