package io.sluice.storage.format;

import static io.sluice.storage.format.FormatFixtures.EVENT_SCHEMA;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

class FormatConfigTest {

    @Test
    void namesAndDefaultsBuildEachFormat() {
        assertEquals("jsonl (zstd, files .jsonl.zst)", FormatConfig.builder().format("jsonl").build().toString());
        assertEquals("raw (zstd, files .raw.zst)", FormatConfig.builder().format("RAW").build().toString());
        assertEquals("parquet (zstd, files .zstd.parquet)", FormatConfig.builder().format("parquet")
                .valueSchema(EVENT_SCHEMA).build().toString());
        assertEquals("avro (zstandard, files .avro)", FormatConfig.builder().format("avro").valueSchema(EVENT_SCHEMA)
                .build().toString());
        assertEquals("parquet (lz4_raw, files .lz4raw.parquet)", FormatConfig.builder().format(" Parquet ")
                .codec("LZ4_RAW").valueSchema(EVENT_SCHEMA).build().toString());
        assertEquals("parquet (zstd, files .zstd.parquet, avro-confluent values)", FormatConfig.builder()
                .format("parquet").valueSchema(EVENT_SCHEMA).valueEncoding("Avro-Confluent").build().toString());
        assertEquals("raw (zstd, files .raw.zst, avro values)", FormatConfig.builder().format("raw")
                .valueSchema(EVENT_SCHEMA).valueEncoding("avro").build().toString());
        assertEquals("json", FormatConfig.builder().format("jsonl").build().valueEncoding());
    }

    @Test
    void valueEncodingMistakesSayWhatToWriteInstead() {
        assertMistake("unknown valueEncoding 'protobuf'; expected one of json, avro, avro-confluent",
                b -> b.format("parquet").valueSchema(EVENT_SCHEMA).valueEncoding("protobuf"));
        assertMistake("the valueEncoding avro needs a valueSchema: the Avro schema (JSON) the values were written "
                + "with, a record", b -> b.format("raw").valueEncoding("avro"));
        assertMistake("the jsonl format writes JSON values as they are, and the values are avro-confluent; write "
                + "parquet or avro files (the decoded records, with the valueSchema as their columns), or raw files "
                + "to keep the bytes",
                b -> b.format("jsonl").valueSchema(EVENT_SCHEMA).valueEncoding("avro-confluent"));
        assertMistake("Avro values need a record schema (its fields are what the layout and the columns read), not an "
                + "array", b -> b.format("avro").valueSchema("{\"type\": \"array\", \"items\": \"long\"}")
                        .valueEncoding("avro"));
    }

    @Test
    void eachMistakeSaysWhatToWriteInstead() {
        assertMistake("no format given; expected one of jsonl, parquet, avro, raw", b -> b);
        assertMistake("unknown format 'csv'; expected one of jsonl, parquet, avro, raw", b -> b.format("csv"));
        assertMistake("unknown codec 'zst' for parquet; expected one of none, snappy, gzip, zstd, lz4_raw",
                b -> b.format("parquet").codec("zst").valueSchema(EVENT_SCHEMA));
        assertMistake("unknown codec 'zstd' for avro; expected one of null, deflate, snappy, zstandard, bzip2, xz",
                b -> b.format("avro").codec("zstd").valueSchema(EVENT_SCHEMA));
        assertMistake("unknown codec 'lz4_raw' for jsonl; expected one of none, gzip, zstd, lz4, snappy",
                b -> b.format("jsonl").codec("lz4_raw"));
        assertMistake("unknown delimiter 'tab' for raw; expected one of newline, length",
                b -> b.format("raw").delimiter("tab"));
        assertMistake("parquet needs a valueSchema: the Avro schema (JSON) of the records' values, a record whose "
                + "fields become the columns next to the Kafka coordinates", b -> b.format("parquet"));
        // a trailing comma: Jackson's words and place, not its exception's class and source
        assertMistake("the values' schema is not a valid Avro schema: it is not JSON: Unexpected character ('}' (code "
                + "125)): was expecting double-quote to start field name at line 1, column 33",
                b -> b.format("avro").valueSchema("{\"type\": \"record\", \"name\": \"E\",}"));
        assertMistake("the values' schema is not a valid Avro schema: \"strin\" is not a defined name. The type of "
                + "the \"a\" field must be a defined name or a {\"type\": ...} expression.",
                b -> b.format("avro").valueSchema("{\"type\": \"record\", \"name\": \"E\", \"fields\": [{\"name\": "
                        + "\"a\", \"type\": \"strin\"}]}"));
        assertMistake("the value schema must be an Avro record, not string",
                b -> b.format("avro").valueSchema("\"string\""));
        assertMistake("the value schema has a field named kafka_offset, a column Sluice adds for the Kafka "
                + "coordinates; rename the field", b -> b.format("parquet").valueSchema("{\"type\": \"record\", "
                        + "\"name\": \"E\", \"fields\": [{\"name\": \"kafka_offset\", \"type\": \"long\"}]}"));
        assertMistake("the value schema cannot be written as Parquet: Cannot write a schema with an empty group: "
                + "optional group e {\n}", b -> b.format("parquet").valueSchema("{\"type\": \"record\", \"name\": "
                        + "\"E\", \"fields\": [{\"name\": \"e\", \"type\": [\"null\", {\"type\": \"record\", "
                        + "\"name\": \"Empty\", \"fields\": []}]}]}"));
        assertMistake("the jsonl format takes no valueSchema; that option is for parquet and avro",
                b -> b.format("jsonl").valueSchema(EVENT_SCHEMA));
        assertMistake("the raw format takes no valueSchema; that option is for parquet and avro, and for Avro values",
                b -> b.format("raw").valueSchema(EVENT_SCHEMA));
        assertMistake("the raw format takes no keys and headers; that option is for jsonl, parquet and avro (raw "
                + "stores the value bytes only)", b -> b.format("raw").headers(true));
        assertMistake("the avro format takes no delimiter; that option is for raw",
                b -> b.format("avro").valueSchema(EVENT_SCHEMA).delimiter("newline"));
        assertMistake("the jsonl format takes no rowGroupBytes, pageBytes or dictionaryPageBytes; that option is for "
                + "parquet", b -> b.format("jsonl").rowGroupBytes(1 << 20));
        assertMistake("the avro format takes no rowGroupBytes, pageBytes or dictionaryPageBytes; that option is for "
                + "parquet", b -> b.format("avro").valueSchema(EVENT_SCHEMA).dictionaryPageBytes(1 << 20));
        assertMistake("rowGroupBytes for parquet must be between 65536 (64 KiB) and 1073741824 (1 GiB), not 1000; the "
                + "default is 16777216 (16 MiB)", b -> b.format("parquet").valueSchema(EVENT_SCHEMA).rowGroupBytes(1000));
        assertMistake("pageBytes for parquet must be between 1024 (1 KiB) and rowGroupBytes (16777216), not 33554432; "
                + "the default is 65536 (64 KiB); each open file holds a page-sized buffer, so large pages cost heap "
                + "with many open files", b -> b.format("parquet").valueSchema(EVENT_SCHEMA).pageBytes(32 << 20));
        assertMistake("dictionaryPageBytes for parquet must be between 1024 (1 KiB) and rowGroupBytes (65536), not "
                + "100; the default is 16384 (16 KiB); each column's dictionary stays on the heap, at up to 8 times "
                + "this size, until its row group is written", b -> b.format("parquet").valueSchema(EVENT_SCHEMA)
                        .rowGroupBytes(64 << 10).dictionaryPageBytes(100));
    }

    private static void assertMistake(String message, UnaryOperator<FormatConfig.Builder> options) {
        assertEquals(message, assertThrows(IllegalArgumentException.class,
                () -> options.apply(FormatConfig.builder()).build()).getMessage());
    }
}
