package io.sluice.storage.format;

import static io.sluice.storage.format.FormatFixtures.EVENT_SCHEMA;
import static io.sluice.storage.format.FormatFixtures.config;
import static io.sluice.storage.format.FormatFixtures.event;
import static io.sluice.storage.format.FormatFixtures.record;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.testkit.TestDirs;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * Which columns a Parquet file dictionary-encodes, learnt from the files before it ({@link DictionaryChoice}): real
 * files written by {@link ParquetFormat}, their encodings read by DuckDB.
 */
class DictionaryChoiceTest {

    /** The event fields whose values never repeat in a file (ids, amounts, prices): Parquet gives their dictionary up. */
    private static final Set<String> UNIQUE = Set.of("id", "amount", "price");

    @Test
    void aColumnThatGaveItsDictionaryUpInThreeFilesIsWrittenPlainAndTheFileIsTheSame() throws Exception {
        ParquetFormat format = parquet();
        ParquetFormat fresh = parquet();
        for (int file = 0; file < DictionaryChoice.GIVE_UP_AFTER; file++) {
            assertEquals(Set.of(), format.dictionaries.plainColumns(), "tried until given up " + file + " times");
            bytes(format, events(file * 1_000L, 300));
        }
        assertEquals(UNIQUE, format.dictionaries.plainColumns(), "the repeating columns (category, tags, user, at) "
                + "keep their dictionary");

        List<ConsumerRecord<byte[], byte[]>> rows = events(10_000, 300);
        byte[] learnt = bytes(format, rows);
        assertArrayEquals(bytes(fresh, rows), learnt, "a dictionary given up leaves the values in plain pages either way");

        Path file = TestDirs.newDir("dictionary-choice").resolve("orders+2+10000" + format.extension());
        Files.write(file, learnt);
        try (DuckDb duck = new DuckDb()) {
            assertEquals("at|category|tags, list, element|user, age|user, name", duck.row("SELECT "
                    + "string_agg(DISTINCT path_in_schema, '|' ORDER BY path_in_schema) FROM parquet_metadata('" + file + "') WHERE "
                    + "encodings LIKE '%DICTIONARY%'"), "dictionary pages where values repeat");
        }
    }

    @Test
    void aColumnGivenUpIsTriedAgainEvery32ndFileAndKeepsItsDictionaryOnceItsValuesRepeat() throws Exception {
        ParquetFormat format = parquet();
        for (int file = 0; file < DictionaryChoice.GIVE_UP_AFTER; file++) {
            bytes(format, events(file * 1_000L, 300));
        }
        int tries = 0;
        for (int file = 1; file <= 2 * DictionaryChoice.RETRY_EVERY; file++) {
            if (!format.dictionaries.plainColumns().contains("id")) {
                tries++;
                assertEquals(0, file % DictionaryChoice.RETRY_EVERY, "tried again at file " + file);
            }
        }
        assertEquals(2, tries);

        // ids that repeat: the next retry keeps the dictionary, and the files after it try it again
        List<ConsumerRecord<byte[], byte[]>> repeating = new ArrayList<>();
        for (long i = 0; i < 300; i++) {
            repeating.add(record(i, "k", event(i % 3)));
        }
        for (int file = 1; file < DictionaryChoice.RETRY_EVERY; file++) {
            assertEquals(UNIQUE, format.dictionaries.plainColumns());
        }
        bytes(format, repeating); // the 32nd file: tries every given-up column
        assertEquals(Set.of(), format.dictionaries.plainColumns(), "every column kept its dictionary this time");
    }

    @Test
    void aFileOfFewValuesSaysNothing() throws Exception {
        ParquetFormat format = parquet();
        for (int file = 0; file < 10; file++) {
            bytes(format, events(file * 1_000L, (int) DictionaryChoice.MIN_VALUES - 1));
        }
        assertEquals(Set.of(), format.dictionaries.plainColumns(), "a dictionary of a handful of values never pays");
    }

    private static ParquetFormat parquet() {
        return (ParquetFormat) config("parquet", "zstd").valueSchema(EVENT_SCHEMA).build().fileFormat();
    }

    private static List<ConsumerRecord<byte[], byte[]>> events(long first, int count) {
        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (long i = first; i < first + count; i++) {
            records.add(record(i, "key-" + i, event(i)));
        }
        return records;
    }

    private static byte[] bytes(ParquetFormat format, List<ConsumerRecord<byte[], byte[]>> records) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (RecordWriter writer = format.open(out)) {
            for (ConsumerRecord<byte[], byte[]> r : records) {
                writer.write(r, null);
            }
        }
        return out.toByteArray();
    }

}
