package io.sluice.storage.format;

import static io.sluice.storage.format.FormatFixtures.EVENT_SCHEMA;
import static io.sluice.storage.format.FormatFixtures.NULLABLE_SCHEMA;
import static io.sluice.storage.format.FormatFixtures.config;
import static io.sluice.storage.format.FormatFixtures.events;
import static io.sluice.storage.format.FormatFixtures.record;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.core.sink.RecordRejectedException;
import io.sluice.storage.value.ValueReader;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.file.DataFileStream;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * What a format keeps of a record the sink holds for a later file ({@link FileFormat#hold}) and how its writer takes
 * it back ({@link RecordWriter#writeHeld}): the same file as writing the records as they came.
 */
class HeldRecordTest {

    @Test
    void aParquetFileWrittenFromHeldRowsIsTheSameFile() throws Exception {
        FileFormat format = config("parquet", "zstd").valueSchema(EVENT_SCHEMA).keys(true).headers(true).build()
                .fileFormat();
        List<ConsumerRecord<byte[], byte[]>> records = events(500);
        byte[] held = writeHeld(format, records);
        assertArrayEquals(write(format, records), held);
    }

    @Test
    void anAvroFileWrittenFromHeldRowsHasTheSameRows() throws Exception {
        FileFormat format = config("avro", "zstandard").valueSchema(EVENT_SCHEMA).keys(true).headers(true).build()
                .fileFormat();
        List<ConsumerRecord<byte[], byte[]>> records = events(500);
        List<String> rows = rows(writeHeld(format, records));
        assertEquals(500, rows.size());
        assertEquals(rows(write(format, records)), rows); // the files differ only in their random sync markers
    }

    @Test
    void aRowIsKeptSmallerThanItsJsonAndATombstoneAsARowOfNulls() throws Exception {
        FileFormat format = config("parquet", "zstd").valueSchema(EVENT_SCHEMA).build().fileFormat();
        ConsumerRecord<byte[], byte[]> record = events(8).get(7);
        ConsumerRecord<byte[], byte[]> kept = format.hold(record, null);
        assertEquals(List.of(7L, record.timestamp()), List.of(kept.offset(), kept.timestamp()));
        assertTrue(kept.value().length < record.value().length / 2, kept.value().length + " bytes for a JSON value of "
                + record.value().length);

        FileFormat nullable = config("parquet", "zstd").valueSchema(NULLABLE_SCHEMA).build().fileFormat();
        List<ConsumerRecord<byte[], byte[]>> withTombstone = List.of(record(0, "a", "{\"id\": 1, \"name\": \"x\"}"),
                record(1, "a", null));
        assertArrayEquals(write(nullable, withTombstone), writeHeld(nullable, withTombstone));
    }

    @Test
    void holdingRejectsWhatTheWriterWouldReject() throws Exception {
        FileFormat format = config("parquet", "zstd").valueSchema(EVENT_SCHEMA).build().fileFormat();
        RecordRejectedException wrongType = assertThrows(RecordRejectedException.class,
                () -> format.hold(record(3, "k", "{\"id\": \"three\"}"), null));
        assertTrue(wrongType.getMessage().contains("id"), wrongType.getMessage());
        assertThrows(RecordRejectedException.class, () -> format.hold(record(4, "k", null), null),
                "a tombstone where the schema's fields are not nullable");

        FileFormat lines = config("raw", "none").build().fileFormat();
        assertThrows(RecordRejectedException.class, () -> lines.hold(record(5, "k", "two\nlines"), null));
        ConsumerRecord<byte[], byte[]> one = record(6, "k", "one line");
        assertSame(one, lines.hold(one, null), "a stream format keeps the record as it came");
    }

    private static byte[] write(FileFormat format, List<ConsumerRecord<byte[], byte[]>> records) throws Exception {
        ValueReader values = format.valueEncoding().reader(List.of(), format.decodesValues());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (RecordWriter writer = format.open(out)) {
            for (ConsumerRecord<byte[], byte[]> r : records) {
                writer.write(r, format.decodesValues() && r.value() != null ? values.read(r.value()) : null);
            }
        }
        return out.toByteArray();
    }

    private static byte[] writeHeld(FileFormat format, List<ConsumerRecord<byte[], byte[]>> records)
            throws Exception {
        ValueReader values = format.valueEncoding().reader(List.of(), format.decodesValues());
        List<ConsumerRecord<byte[], byte[]>> kept = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : records) {
            kept.add(format.hold(r, format.decodesValues() && r.value() != null ? values.read(r.value()) : null));
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (RecordWriter writer = format.open(out)) {
            for (ConsumerRecord<byte[], byte[]> r : kept) {
                writer.writeHeld(r, format.decodesValues() ? values : null);
            }
        }
        return out.toByteArray();
    }

    private static List<String> rows(byte[] avroFile) throws Exception {
        List<String> rows = new ArrayList<>();
        try (DataFileStream<GenericRecord> reader = new DataFileStream<>(new ByteArrayInputStream(avroFile),
                new GenericDatumReader<>())) {
            reader.forEach(r -> rows.add(r.toString()));
        }
        return rows;
    }
}
