package io.sluice.storage.format;

import static io.sluice.storage.format.FormatFixtures.EVENT_SCHEMA;
import static io.sluice.storage.format.FormatFixtures.config;
import static io.sluice.storage.format.FormatFixtures.events;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testkit.TestDirs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The audit's view of a file: the coordinates of its rows, picked by the file's name, and loud on damage. */
class ArchivedRowsTest {

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"parquet, zstd", "parquet, none", "avro, deflate", "avro, null", "jsonl, gzip"})
    void theReaderPickedByTheNameReadsEveryRowsCoordinates(String format, String codec) throws Exception {
        FileFormat f = built(format, codec);
        Path file = TestDirs.newDir("rows-" + format).resolve("orders+2+0" + f.extension());
        FormatFixtures.write(f, file, events(1_500));
        List<String> rows = new ArrayList<>();
        ArchivedFormats.rowsOf(file.getFileName().toString()).orElseThrow()
                .read(file, (topic, partition, offset) -> rows.add(topic + "/" + partition + "@" + offset));
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 1_500; i++) {
            expected.add("orders/2@" + i);
        }
        assertEquals(expected, rows);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"parquet, snappy", "avro, snappy"})
    void aTruncatedFileIsAnIOExceptionNamingTheFile(String format, String codec) throws Exception {
        FileFormat f = built(format, codec);
        Path dir = TestDirs.newDir("truncated-" + format);
        Path whole = dir.resolve("orders+2+0" + f.extension());
        FormatFixtures.write(f, whole, events(3_000));
        byte[] bytes = Files.readAllBytes(whole);
        Path cut = dir.resolve("orders+2+3000" + f.extension());
        Files.write(cut, java.util.Arrays.copyOf(bytes, bytes.length * 2 / 3));
        List<Long> seen = new ArrayList<>();
        IOException e = assertThrows(IOException.class, () -> ArchivedFormats.rowsOf(cut.getFileName().toString())
                .orElseThrow().read(cut, (topic, partition, offset) -> seen.add(offset)));
        assertTrue(e.getMessage().startsWith(cut + ": unreadable after row " + seen.size() + ": "), e.getMessage());
        assertTrue(e.getMessage().endsWith("(a file cut short or damaged, or not a" + (format.equals("avro") ? "n Avro"
                : " Parquet") + " file Sluice wrote)"), e.getMessage());
        assertFalse(e.getMessage().contains("Exception"), "in words, no class names: " + e.getMessage());
        if (format.equals("avro")) {
            assertTrue(seen.size() > 0 && seen.size() < 3_000, "the blocks before the cut are read: " + seen.size());
        } else {
            assertEquals(0, seen.size(), "a Parquet file without its footer has no readable rows");
        }
    }

    /**
     * A JSON Lines file cut anywhere is loud, in every codec: uncompressed, a last line cut after its coordinates read
     * as a whole row (the reader stops at them), and the file passed as archived.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"none", "gzip", "zstd", "lz4", "snappy"})
    void aJsonLinesFileCutAnywhereIsAnIOException(String codec) throws Exception {
        FileFormat f = built("jsonl", codec);
        Path dir = TestDirs.newDir("truncated-jsonl-" + codec);
        Path whole = dir.resolve("orders+2+0" + f.extension());
        FormatFixtures.write(f, whole, events(200));
        byte[] bytes = Files.readAllBytes(whole);
        for (int cut = 1; cut < bytes.length; cut += Math.max(1, bytes.length / 97)) {
            if (codec.equals("none") && bytes[cut - 1] == '\n') {
                continue; // whole lines: the rows after the cut are missing, which the audit's offsets show
            }
            Path part = dir.resolve("orders+2+" + cut + f.extension());
            Files.write(part, java.util.Arrays.copyOf(bytes, cut));
            int at = cut;
            assertThrows(IOException.class, () -> ArchivedFormats.rowsOf(part.getFileName().toString())
                    .orElseThrow().read(part, (topic, partition, offset) -> { }), () -> "cut at byte " + at + " of "
                            + bytes.length + " read as whole");
            Files.delete(part);
        }
    }

    @Test
    void aFileWithoutCoordinatesIsReportedWithTheRow() throws Exception {
        Path file = TestDirs.newDir("no-coordinates").resolve("foreign.avro");
        org.apache.avro.Schema schema = new org.apache.avro.Schema.Parser().parse(
                "{\"type\": \"record\", \"name\": \"X\", \"fields\": [{\"name\": \"kafka_topic\", \"type\": \"string\"}]}");
        try (var writer = new org.apache.avro.file.DataFileWriter<org.apache.avro.generic.GenericRecord>(
                new org.apache.avro.generic.GenericDatumWriter<>(schema))) {
            writer.create(schema, file.toFile());
            org.apache.avro.generic.GenericData.Record r = new org.apache.avro.generic.GenericData.Record(schema);
            r.put(0, "orders");
            writer.append(r);
        }
        IOException e = assertThrows(IOException.class, () -> ArchivedFormats.rowsOf("foreign.avro").orElseThrow()
                .read(file, (topic, partition, offset) -> { }));
        assertEquals(file + ": unreadable after row 0: Found X, expecting Coordinates, missing required field "
                + "kafka_offset (a file cut short or damaged, or not an Avro file Sluice wrote)", e.getMessage());
    }

    @Test
    void everyNameSluiceWritesIsADataFileAndOnlyRawOnesHaveNoRows() {
        List<String> written = new ArrayList<>();
        for (String codec : List.of("none", "snappy", "gzip", "zstd", "lz4_raw")) {
            written.add(built("parquet", codec).extension());
        }
        for (String codec : List.of("null", "deflate", "snappy", "zstandard", "bzip2", "xz")) {
            written.add(built("avro", codec).extension());
        }
        for (String codec : List.of("none", "gzip", "zstd", "lz4", "snappy")) {
            written.add(built("jsonl", codec).extension());
            for (String delimiter : List.of("newline", "length")) {
                written.add(config("raw", codec).delimiter(delimiter).build().fileFormat().extension());
            }
        }
        assertEquals(List.of(".parquet", ".snappy.parquet", ".gz.parquet", ".zstd.parquet", ".lz4raw.parquet",
                ".avro", ".avro", ".avro", ".avro", ".avro", ".avro",
                ".jsonl", ".raw", ".rawlen", ".jsonl.gz", ".raw.gz", ".rawlen.gz", ".jsonl.zst", ".raw.zst",
                ".rawlen.zst", ".jsonl.lz4", ".raw.lz4", ".rawlen.lz4", ".jsonl.sz", ".raw.sz", ".rawlen.sz"), written);
        for (String extension : written) {
            String name = "orders+0+42" + extension;
            assertTrue(ArchivedFormats.isDataFile(name), name);
            assertEquals(!extension.startsWith(".raw"), ArchivedFormats.rowsOf(name).isPresent(), name);
        }
        for (String stranger : List.of("notes.txt", "orders+0+42.parquet.tmp", "orders.json", "x.raw.bz2", "_SUCCESS")) {
            assertFalse(ArchivedFormats.isDataFile(stranger), stranger);
        }
    }

    private static FileFormat built(String format, String codec) {
        FormatConfig.Builder b = config(format, codec).keys(true);
        if (!format.equals("jsonl")) {
            b.valueSchema(EVENT_SCHEMA);
        }
        return b.build().fileFormat();
    }
}
