package io.sluice.storage.format;

import static io.sluice.storage.format.FormatFixtures.EVENT_SCHEMA;
import static io.sluice.storage.format.FormatFixtures.NULLABLE_SCHEMA;
import static io.sluice.storage.format.FormatFixtures.config;
import static io.sluice.storage.format.FormatFixtures.event;
import static io.sluice.storage.format.FormatFixtures.events;
import static io.sluice.storage.format.FormatFixtures.record;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.core.sink.RecordRejectedException;
import io.sluice.testkit.TestDirs;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Parquet files as DuckDB reads them: an independent reader, not parquet-java reading its own output. */
class ParquetFormatTest {

    private static final long ROW_GROUP = 64 << 10;

    @ParameterizedTest
    @ValueSource(strings = {"none", "snappy", "gzip", "zstd", "lz4_raw"})
    void everyCodecIsReadByDuckDbWithCoordinatesKeysHeadersAndValues(String codec) throws Exception {
        FileFormat format = config("parquet", codec).valueSchema(EVENT_SCHEMA).keys(true).headers(true)
                .rowGroupBytes(ROW_GROUP).pageBytes(8 << 10).build().fileFormat();
        Path file = TestDirs.newDir("parquet-" + codec).resolve("orders+2+0" + format.extension());
        FormatFixtures.write(format, file, events(3_000));
        try (DuckDb duck = new DuckDb()) {
            String from = " FROM read_parquet('" + file + "')";
            assertEquals("3000|0|2999|4498500|orders|2", duck.coordinates(from));
            assertEquals("1790000000007|key-7|1|t-7|70|view|8.75|3|t2|user-7|null|1795168807000|7.07", duck.row(
                    "SELECT epoch_ms(kafka_timestamp), kafka_key, len(kafka_headers), kafka_headers[1].value, id, "
                    + "category, amount, len(tags), tags[3], \"user\".name, \"user\".age, epoch_ms(\"at\"), price"
                    + from + " WHERE kafka_offset = 7"));
            assertEquals("2|trace|null|null|2|null", duck.row("SELECT len(kafka_headers), kafka_headers[2].key, "
                    + "kafka_headers[2].value, amount, len(tags), \"user\".age" + from + " WHERE kafka_offset = 1050"), "repeated header names kept, absent fields null");
            String codecName = codec.equals("none") ? "UNCOMPRESSED" : codec.toUpperCase(Locale.ROOT);
            assertEquals(codecName, duck.row("SELECT DISTINCT compression FROM parquet_metadata('" + file + "')"));
            long rowGroups = (Long) duck.rows("SELECT count(DISTINCT row_group_id) FROM parquet_metadata('" + file
                    + "')").get(0).get(0);
            assertTrue(rowGroups > 1, "several row groups of at most 64 KiB, got " + rowGroups);
        }
    }

    @Test
    void keysAndHeadersAreColumnsOnlyWhenAskedFor() throws Exception {
        FileFormat format = config("parquet", "zstd").valueSchema(EVENT_SCHEMA).build().fileFormat();
        Path file = TestDirs.newDir("parquet-plain").resolve("orders+2+0" + format.extension());
        FormatFixtures.write(format, file, events(10));
        try (DuckDb duck = new DuckDb()) {
            assertEquals("kafka_topic,kafka_partition,kafka_offset,kafka_timestamp,id,category,amount,tags,user,at,price",
                    duck.row("SELECT string_agg(column_name, ',') FROM (DESCRIBE SELECT * FROM read_parquet('" + file
                            + "'))"));
        }
    }

    @Test
    void aTombstoneIsARowOfNullsWhenEveryFieldIsNullableAndIsRejectedOtherwise() throws Exception {
        FileFormat nullable = config("parquet", "snappy").valueSchema(NULLABLE_SCHEMA).keys(true).build().fileFormat();
        Path file = TestDirs.newDir("parquet-tombstones").resolve("orders+2+0" + nullable.extension());
        FormatFixtures.write(nullable, file, List.of(record(0, "a", "{\"id\": 1, \"name\": \"x\"}"),
                record(1, "a", null), record(2, "b", "{\"id\": 2}")));
        try (DuckDb duck = new DuckDb()) {
            assertEquals(List.of(List.of(0L, "a", 1L, "x"), listOf(1L, "a", null, null), listOf(2L, "b", 2L, null)),
                    duck.rows("SELECT kafka_offset, kafka_key, id, name FROM read_parquet('" + file + "') ORDER BY 1"));
        }

        FileFormat strict = config("parquet", "zstd").valueSchema(EVENT_SCHEMA).build().fileFormat();
        try (RecordWriter writer = strict.open(OutputStream.nullOutputStream())) {
            RecordRejectedException e = assertThrows(RecordRejectedException.class,
                    () -> writer.write(record(5, "k", null), null));
            assertEquals("a tombstone (null value) is archived as a row whose value fields are all null, but the value "
                    + "schema's field id is not nullable; make every field of the value schema nullable to archive "
                    + "tombstones", e.getMessage());
        }
    }

    /** What a held record meets on arrival ({@code FileFormat.check}) must reject what its writer would, in its words. */
    @Test
    void theCheckRejectsWhatTheWriterRejectsInTheSameWords() throws Exception {
        byte[] surrogate = {'{', '"', 'i', 'd', '"', ':', '1', ',', '"', 't', 'a', 'g', 's', '"', ':', '[', '"',
            (byte) 0xED, (byte) 0xA0, (byte) 0x80, '"', ']', '}'};
        List<ConsumerRecord<byte[], byte[]>> records = List.of(record(0, "k", event(0)),
                record(1, "k", event(1).replace("\"user\": {\"name\": \"user-1\"", "\"user\": {\"name\": 7")),
                record(2, "k", null), record(3, "k", "{\"id\": 3"),
                new ConsumerRecord<>("orders", 2, 4L, new byte[] {(byte) 0xC3}, event(4).getBytes(StandardCharsets.UTF_8)),
                new ConsumerRecord<>("orders", 2, 5L, "k".getBytes(StandardCharsets.UTF_8), surrogate));
        int rejected = 0;
        for (boolean keys : new boolean[] {false, true}) {
            FileFormat format = config("parquet", "zstd").valueSchema(EVENT_SCHEMA).keys(keys).build().fileFormat();
            try (RecordWriter writer = format.open(OutputStream.nullOutputStream())) {
                for (ConsumerRecord<byte[], byte[]> r : records) {
                    String writing = outcome(() -> writer.write(r, null));
                    assertEquals(writing, outcome(() -> format.check(r, null)), "offset " + r.offset() + ", keys "
                            + keys);
                    rejected += writing.equals("accepted") ? 0 : 1;
                }
            }
        }
        assertEquals(9, rejected, "offsets 1, 2, 3 and 5 both ways, the key of offset 4 only when keys are columns");
    }

    private interface Attempt {
        void run() throws Exception;
    }

    private static String outcome(Attempt attempt) throws Exception {
        try {
            attempt.run();
            return "accepted";
        } catch (RecordRejectedException e) {
            return e.getMessage();
        }
    }

    @Test
    void aRejectedRecordLeavesNothingInTheFileAndTheNextOnesGoOn() throws Exception {
        FileFormat format = config("parquet", "zstd").valueSchema(EVENT_SCHEMA).keys(true).build().fileFormat();
        Path file = TestDirs.newDir("parquet-reject").resolve("orders+2+0" + format.extension());
        try (OutputStream out = Files.newOutputStream(file); RecordWriter writer = format.open(out)) {
            for (long i = 0; i < 10; i++) {
                writer.write(record(i, "k", event(i)), null);
            }
            long written = writer.bytesWritten();
            long buffered = writer.bufferedBytes();
            RecordRejectedException e = assertThrows(RecordRejectedException.class, () -> writer.write(
                    record(10, "k", event(10).replace("\"user\": {\"name\": \"user-0\"", "\"user\": {\"name\": 7")),
                    null));
            assertEquals("the value does not match the schema: field 'user.name': expected string, found number 7",
                    e.getMessage());
            assertEquals(List.of(10L, written, buffered), List.of(writer.records(), writer.bytesWritten(),
                    writer.bufferedBytes()));
            RecordRejectedException key = assertThrows(RecordRejectedException.class, () -> writer.write(
                    new org.apache.kafka.clients.consumer.ConsumerRecord<>("orders", 2, 11L, new byte[] {(byte) 0xC3},
                            event(11).getBytes(java.nio.charset.StandardCharsets.UTF_8)), null));
            assertEquals("the key is not UTF-8 text, and kafka_key is a string column; store keys and headers only "
                    + "for topics whose keys and headers are text", key.getMessage());
            for (long i = 12; i < 20; i++) {
                writer.write(record(i, "k", event(i)), null);
            }
        }
        try (DuckDb duck = new DuckDb()) {
            assertEquals("18|0|19|169", duck.row("SELECT count(*), min(kafka_offset), max(kafka_offset), "
                    + "sum(kafka_offset) FROM read_parquet('" + file + "')"));
        }
    }

    @Test
    void theRowGroupHeldInMemoryIsReportedAndTheSizeEstimateFollowsTheCompressedFile() throws Exception {
        FileFormat format = config("parquet", "zstd").valueSchema(EVENT_SCHEMA).rowGroupBytes(ROW_GROUP)
                .pageBytes(8 << 10).build().fileFormat();
        ParquetHeap heap = ((ParquetFormat) format).heap;
        Path file = TestDirs.newDir("parquet-memory").resolve("orders+2+0" + format.extension());
        List<org.apache.kafka.clients.consumer.ConsumerRecord<byte[], byte[]>> records = events(5_000);
        long peak = 0;
        int flushes = 0;
        long estimate;
        long[] bytesOut = {0};
        try (OutputStream stream = Files.newOutputStream(file); OutputStream counted = new FilterOutputStream(stream) {
            @Override
            public void write(int b) throws IOException {
                bytesOut[0]++;
                stream.write(b);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                bytesOut[0] += len;
                stream.write(b, off, len);
            }
        }) {
            RecordWriter writer = format.open(counted); // closed below, by hand: what it reports after closing matters
            long bytesBefore = bytesOut[0];
            long bufferedBefore = 0;
            for (var record : records) {
                writer.write(record, null);
                long buffered = writer.bufferedBytes();
                peak = Math.max(peak, buffered);
                if (bytesOut[0] > bytesBefore) { // this row completed a row group, which went out
                    flushes++;
                    assertTrue(buffered < bufferedBefore, "a row group out is no longer held: " + bufferedBefore
                            + " then " + buffered + " bytes");
                }
                bytesBefore = bytesOut[0];
                bufferedBefore = buffered;
            }
            assertTrue(writer.bufferedBytes() > heap.fixed(), "the last row group is still held");
            estimate = writer.bytesWritten();
            writer.close();
            assertEquals(0, writer.bufferedBytes(), "closed: nothing held");
            counted.flush();
            assertEquals(Files.size(file), writer.bytesWritten(), "closed: the size is the file's");
        }
        assertTrue(flushes >= 5, "row groups went out as the data grew: " + flushes);
        // besides the row group's data, the writer's own heap: fixed, plus dictionaries and page indexes that grow with
        // the row group (less than with all 5,000 records in one)
        long sourceBytes = records.stream().mapToLong(r -> r.key().length + r.value().length).sum();
        long besides = heap.fixed() + heap.growing(records.size(), sourceBytes);
        assertTrue(peak > heap.fixed() + ROW_GROUP / 2 && peak < besides + 2 * ROW_GROUP,
                "about one row group held at most, besides the writer's own " + besides + " bytes: " + peak);
        // the held data (about 10x its compressed size here) is scaled by the compression seen so far; the footer
        // (statistics and indexes of every row group) is what the estimate does not know of
        double ratio = (double) estimate / Files.size(file);
        assertTrue(ratio > 0.6 && ratio <= 1.0, "estimate " + estimate + " vs " + Files.size(file) + " bytes");
    }

    /**
     * What a writer holds from its first row whatever its data (measured, see {@link ParquetHeap}): 4 KiB per leaf
     * column (12 here: 4 coordinates, 8 of the event), 16 KiB more per dictionary-encoded one (the event's 8), and for
     * a file compressed by parquet-java's codecs a page-sized buffer plus 16 KiB (zstd's pages use pooled
     * buffers). One row's data and its share of dictionaries stay under 1 KiB.
     */
    @Test
    void aWriterCountsTheHeapItHoldsBesidesItsData() throws Exception {
        assertEquals(12 * 4 + 8 * 16 + 64 + 16, firstRowKiB(config("parquet", "gzip")), "the default 64 KiB pages");
        assertEquals(12 * 4 + 8 * 16, firstRowKiB(config("parquet", "zstd")),
                "zstd pages: pooled buffers, not the file's");
        assertEquals(12 * 4 + 8 * 16 + 1024 + 16, firstRowKiB(config("parquet", "snappy").pageBytes(1 << 20)),
                "parquet-java's default 1 MiB pages");
        assertEquals(12 * 4 + 8 * 16, firstRowKiB(config("parquet", "none")), "no compressor, no buffer");
    }

    @Test
    void dictionariesAreCountedAsIfEveryValueWereNewUpToTheirCapAndPageIndexesPerPageWritten() {
        ParquetHeap heap = ((ParquetFormat) config("parquet", "zstd").valueSchema(EVENT_SCHEMA).build().fileFormat())
                .heap;
        // id, amount and at (longs, doubles): 5 x 16 KiB; category, tags, user.name, price (strings, bytes) and
        // user.age (int): 8 x 16 KiB; the coordinates: none
        assertEquals((3 * 5 + 5 * 8) * 16 << 10, heap.dictionaryCap());
        assertEquals(0, heap.growing(0, 0));
        assertEquals(3 * 40 + 4 * 64 + 32, heap.growing(1, 0));
        assertEquals(heap.dictionaryCap(), heap.growing(10_000, 0), "full after 2,048 rows at most");
        assertEquals(heap.dictionaryCap() + 10 * 512, heap.growing(10_000, 10 * 64 << 10),
                "a page per 64 KiB of input");
        assertEquals(heap.dictionaryCap() + 12 * 512, heap.growing(20_000, 0), "and per 20,000 rows in each column");
    }

    @Test
    void theCoordinatesAreNeverDictionaryEncodedTheOtherColumnsAre() throws Exception {
        FileFormat format = config("parquet", "zstd").valueSchema(EVENT_SCHEMA).build().fileFormat();
        Path file = TestDirs.newDir("parquet-dictionaries").resolve("orders+2+0" + format.extension());
        FormatFixtures.write(format, file, events(1_000));
        try (DuckDb duck = new DuckDb()) {
            String encodings = "SELECT encodings FROM parquet_metadata('" + file + "') WHERE path_in_schema = ";
            for (String column : List.of("kafka_topic", "kafka_partition", "kafka_offset", "kafka_timestamp")) {
                assertFalse(duck.row(encodings + "'" + column + "'").contains("DICTIONARY"), column);
            }
            assertTrue(duck.row(encodings + "'category'").contains("DICTIONARY"), duck.row(encodings + "'category'"));
        }
    }

    private static long firstRowKiB(FormatConfig.Builder options) throws Exception {
        FileFormat format = options.valueSchema(EVENT_SCHEMA).build().fileFormat();
        try (RecordWriter writer = format.open(OutputStream.nullOutputStream())) {
            writer.write(record(0, "k", event(0)), null);
            return writer.bufferedBytes() / 1024;
        }
    }

    private static List<Object> listOf(Object... values) {
        return java.util.Arrays.asList(values); // List.of refuses nulls
    }
}
