package io.sluice.storage.format;

import static io.sluice.storage.format.FormatFixtures.EVENT_SCHEMA;
import static io.sluice.storage.format.FormatFixtures.NULLABLE_SCHEMA;
import static io.sluice.storage.format.FormatFixtures.config;
import static io.sluice.storage.format.FormatFixtures.events;
import static io.sluice.storage.format.FormatFixtures.record;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.core.sink.RecordRejectedException;
import io.sluice.testkit.TestDirs;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.file.DataFileReader;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Avro container files as Avro's own reader sees them, knowing nothing but the file. */
class AvroFormatTest {

    @ParameterizedTest
    @ValueSource(strings = {"null", "deflate", "snappy", "zstandard", "bzip2", "xz"})
    void everyCodecIsReadByAvrosReaderWithCoordinatesKeysHeadersAndValues(String codec) throws Exception {
        FileFormat format = config("avro", codec).valueSchema(EVENT_SCHEMA).keys(true).headers(true).build()
                .fileFormat();
        Path file = TestDirs.newDir("avro-" + codec).resolve("orders+2+0" + format.extension());
        FormatFixtures.write(format, file, events(1_000));
        List<GenericRecord> rows = new ArrayList<>();
        try (DataFileReader<GenericRecord> reader = new DataFileReader<>(file.toFile(), new GenericDatumReader<>())) {
            assertEquals(codec, reader.getMetaString("avro.codec"));
            reader.forEach(rows::add);
        }
        assertEquals(1_000, rows.size());
        for (int i = 0; i < rows.size(); i++) {
            GenericRecord r = rows.get(i);
            assertEquals(List.of("orders", 2, (long) i, FormatFixtures.BASE_TIMESTAMP + i, "key-" + i),
                    List.of(r.get("kafka_topic").toString(), r.get("kafka_partition"), r.get("kafka_offset"),
                            r.get("kafka_timestamp"), r.get("kafka_key").toString()));
        }
        GenericRecord seven = rows.get(7);
        assertEquals("[{\"key\": \"trace\", \"value\": \"t-7\"}]", seven.get("kafka_headers").toString());
        assertEquals("[{\"key\": \"trace\", \"value\": \"t-8\"}, {\"key\": \"trace\", \"value\": null}]",
                rows.get(8).get("kafka_headers").toString());
        assertEquals(70L, seven.get("id"));
        assertEquals("view", seven.get("category").toString());
        assertEquals(8.75, seven.get("amount"));
        assertEquals("[t0, t1, t2]", seven.get("tags").toString());
        assertEquals("{\"name\": \"user-7\", \"age\": null}", seven.get("user").toString());
        assertEquals(1_795_168_807_000L, seven.get("at"));
        ByteBuffer price = (ByteBuffer) seven.get("price");
        assertEquals(new BigDecimal("7.07"), new BigDecimal(new BigInteger(bytes(price)), 2));
    }

    /** Avro allocates its block and stream buffers when a file is created: with many open files, they are the heap. */
    @Test
    void anOpenWriterCountsAvrosBuffersFromItsFirstRowAndNothingOnceClosed() throws Exception {
        long uncompressed = heldAfterOneRow("null");
        long compressing = heldAfterOneRow("zstandard");
        // Avro's block buffer alone is 1.25 times its 64,000-byte sync interval
        assertTrue(uncompressed >= 80_000, "counted " + uncompressed);
        assertTrue(compressing > uncompressed, "a codec keeps an output buffer: " + compressing);
    }

    private static long heldAfterOneRow(String codec) throws Exception {
        FileFormat format = config("avro", codec).valueSchema(EVENT_SCHEMA).build().fileFormat();
        RecordWriter writer = format.open(OutputStream.nullOutputStream());
        var first = events(1).get(0);
        writer.write(first, format.valueEncoding().reader(List.of(), true).read(first.value()));
        long held = writer.bufferedBytes();
        writer.close();
        assertEquals(0, writer.bufferedBytes(), "closed: nothing held");
        return held;
    }

    @Test
    void aTombstoneIsARowOfNullsWhenEveryFieldIsNullableAndIsRejectedOtherwise() throws Exception {
        FileFormat nullable = config("avro", "deflate").valueSchema(NULLABLE_SCHEMA).build().fileFormat();
        Path file = TestDirs.newDir("avro-tombstones").resolve("orders+2+0" + nullable.extension());
        FormatFixtures.write(nullable, file, List.of(record(0, "a", "{\"id\": 1, \"name\": \"x\"}"),
                record(1, "a", null)));
        List<String> rows = new ArrayList<>();
        try (DataFileReader<GenericRecord> reader = new DataFileReader<>(file.toFile(), new GenericDatumReader<>())) {
            reader.forEach(r -> rows.add(r.get("kafka_offset") + ":" + r.get("id") + ":" + r.get("name")));
        }
        assertEquals(List.of("0:1:x", "1:null:null"), rows);

        FileFormat strict = config("avro", "null").valueSchema(EVENT_SCHEMA).build().fileFormat();
        try (RecordWriter writer = strict.open(OutputStream.nullOutputStream())) {
            assertEquals("a tombstone (null value) is archived as a row whose value fields are all null, but the value "
                    + "schema's field id is not nullable; make every field of the value schema nullable to archive "
                    + "tombstones", assertThrows(RecordRejectedException.class,
                            () -> writer.write(record(5, "k", null), null)).getMessage());
        }
    }

    @Test
    void aRejectedRecordLeavesTheFileAsItWas() throws Exception {
        FileFormat format = config("avro", "snappy").valueSchema(EVENT_SCHEMA).build().fileFormat();
        Path file = TestDirs.newDir("avro-reject").resolve("orders+2+0" + format.extension());
        try (OutputStream out = Files.newOutputStream(file); RecordWriter writer = format.open(out)) {
            writer.write(record(0, "k", FormatFixtures.event(0)), null);
            assertEquals("the value does not match the schema: field 'category': expected one of click, view, buy "
                    + "(enum Category), found string \"sell\"", assertThrows(RecordRejectedException.class,
                            () -> writer.write(record(1, "k", FormatFixtures.event(1).replace("view", "sell")), null))
                    .getMessage());
            writer.write(record(2, "k", FormatFixtures.event(2)), null);
            assertEquals(2, writer.records());
        }
        List<Long> offsets = new ArrayList<>();
        try (DataFileReader<GenericRecord> reader = new DataFileReader<>(file.toFile(), new GenericDatumReader<>())) {
            reader.forEach(r -> offsets.add((Long) r.get("kafka_offset")));
        }
        assertEquals(List.of(0L, 2L), offsets);
    }

    private static byte[] bytes(ByteBuffer buffer) {
        byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return bytes;
    }
}
