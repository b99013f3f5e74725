package io.sluice.storage.format;

import static io.sluice.storage.format.FormatFixtures.EVENT_SCHEMA;
import static io.sluice.storage.format.FormatFixtures.NULLABLE_SCHEMA;
import static io.sluice.storage.format.FormatFixtures.config;
import static io.sluice.storage.format.FormatFixtures.event;
import static io.sluice.storage.format.FormatFixtures.events;
import static io.sluice.storage.format.FormatFixtures.record;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.core.sink.RecordRejectedException;
import io.sluice.storage.avro.AvroValues;
import io.sluice.storage.value.ValueReader;
import io.sluice.testkit.TestDirs;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.apache.avro.Schema;
import org.apache.avro.file.DataFileReader;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Records held until their file opens ({@link FileFormat#toHold}, then {@link RecordWriter#writeHeld}): Parquet and
 * Avro rows are converted once, on arrival, and held encoded; the file is the same as one written record by record.
 */
class HeldRecordsFormatTest {

    private static final Schema EVENT = new Schema.Parser().parse(EVENT_SCHEMA);

    @Test
    void parquetOfHeldJsonRecordsHasTheRowsOfOneWrittenRecordByRecordAndHoldsLessThanTheJson() throws Exception {
        FileFormat format = config("parquet", "zstd").valueSchema(EVENT_SCHEMA).keys(true).headers(true)
                .rowGroupBytes(64 << 10).build().fileFormat();
        List<ConsumerRecord<byte[], byte[]>> records = events(3_000);
        Path dir = TestDirs.newDir("held-parquet");
        Path direct = dir.resolve("orders+2+0" + format.extension());
        Path holding = dir.resolve("orders+2+1" + format.extension());
        FormatFixtures.write(format, direct, records);
        FormatFixtures.writeHolding(format, holding, records, 2_000);
        try (DuckDb duck = new DuckDb()) {
            String a = "read_parquet('" + direct + "')";
            String b = "read_parquet('" + holding + "')";
            assertEquals("3000|0|2999|4498500|orders|2", duck.coordinates(" FROM " + b));
            assertEquals("0|0", duck.row("SELECT (SELECT count(*) FROM (SELECT * FROM " + a + " EXCEPT ALL SELECT * "
                    + "FROM " + b + ")), (SELECT count(*) FROM (SELECT * FROM " + b + " EXCEPT ALL SELECT * FROM " + a
                    + "))"), "the same rows: coordinates, keys, headers and values");
        }
        long json = 0;
        long held = 0;
        for (ConsumerRecord<byte[], byte[]> r : records) {
            ConsumerRecord<byte[], byte[]> kept = format.toHold(r, null);
            assertEquals(r.offset(), kept.offset());
            assertEquals(r.timestamp(), kept.timestamp());
            json += r.value().length + r.key().length;
            held += kept.value().length;
        }
        assertTrue(held < json * 3 / 4, "a held row (" + held + " bytes) is smaller than its JSON and key (" + json
                + ")");
    }

    @ParameterizedTest
    @ValueSource(strings = {"json", "avro"})
    void avroFilesOfHeldRecordsAreTheFilesWrittenRecordByRecord(String encoding) throws Exception {
        FileFormat format = config("avro", "deflate").valueSchema(EVENT_SCHEMA).valueEncoding(encoding).keys(true)
                .headers(true).build().fileFormat();
        List<ConsumerRecord<byte[], byte[]>> records = encoding.equals("json") ? events(500)
                : avroValues(events(500), AvroValues::binary);
        Path dir = TestDirs.newDir("held-avro-" + encoding);
        Path direct = dir.resolve("direct.avro");
        Path holding = dir.resolve("holding.avro");
        FormatFixtures.write(format, direct, records);
        FormatFixtures.writeHolding(format, holding, records, 300);
        List<GenericRecord> rows = read(holding);
        assertEquals(500, rows.size());
        assertEquals(read(direct), rows);
    }

    @Test
    void parquetOfHeldAvroValuesHasTheRowsOfOneWrittenRecordByRecord() throws Exception {
        FileFormat format = config("parquet", "snappy").valueSchema(EVENT_SCHEMA).valueEncoding("avro-confluent")
                .keys(true).build().fileFormat();
        List<ConsumerRecord<byte[], byte[]>> records = avroValues(events(400), e -> AvroValues.confluent(3, e));
        Path dir = TestDirs.newDir("held-parquet-avro");
        Path direct = dir.resolve("a" + format.extension());
        Path holding = dir.resolve("b" + format.extension());
        FormatFixtures.write(format, direct, records);
        FormatFixtures.writeHolding(format, holding, records, 400);
        try (DuckDb duck = new DuckDb()) {
            String a = "read_parquet('" + direct + "')";
            String b = "read_parquet('" + holding + "')";
            assertEquals("400|0", duck.row("SELECT count(*), (SELECT count(*) FROM (SELECT * FROM " + a
                    + " EXCEPT ALL SELECT * FROM " + b + ")) FROM " + b));
        }
    }

    @Test
    void holdingRejectsWhatWritingRejectsAndHoldsATombstoneTheSchemaAllows() throws Exception {
        FileFormat strict = config("parquet", "zstd").valueSchema(EVENT_SCHEMA).build().fileFormat();
        assertTrue(assertThrows(RecordRejectedException.class, () -> strict.toHold(record(1, null,
                event(1).replace("\"id\": 10", "\"id\": \"ten\"")), null)).getMessage().contains("id"));
        assertTrue(assertThrows(RecordRejectedException.class, () -> strict.toHold(record(2, null, null), null))
                .getMessage().contains("tombstone"));

        FileFormat nullable = config("avro", "null").valueSchema(NULLABLE_SCHEMA).build().fileFormat();
        Path file = TestDirs.newDir("held-tombstone").resolve("t.avro");
        FormatFixtures.writeHolding(nullable, file, List.of(record(5, null, null),
                record(6, null, "{\"id\": 6, \"name\": \"six\"}")), 2);
        List<String> rows = read(file).stream().map(r -> r.get("kafka_offset") + ":" + r.get("id") + ":"
                + r.get("name")).toList();
        assertEquals(List.of("5:null:null", "6:6:six"), rows);
    }

    @Test
    void formatsThatStoreTheValueHoldTheRecordAsItCame() throws Exception {
        ConsumerRecord<byte[], byte[]> r = record(1, "k", event(1));
        FileFormat jsonLines = config("jsonl", "zstd").build().fileFormat();
        ValueReader values = jsonLines.valueEncoding().reader(List.of(), true);
        assertSame(r, jsonLines.toHold(r, values.read(r.value())));
        FileFormat raw = config("raw", "none").build().fileFormat();
        assertSame(r, raw.toHold(r, null));
        assertTrue(assertThrows(RecordRejectedException.class, () -> raw.toHold(record(2, null, "a\nb"), null))
                .getMessage().contains("newline"));
    }

    private static List<ConsumerRecord<byte[], byte[]>> avroValues(List<ConsumerRecord<byte[], byte[]>> json,
            Function<GenericRecord, byte[]> encoding) throws Exception {
        JsonToAvro convert = new JsonToAvro(EVENT);
        List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : json) {
            GenericData.Record event = new GenericData.Record(EVENT);
            convert.fill(r.value(), event, 0);
            out.add(withValue(r, encoding.apply(event)));
        }
        return out;
    }

    private static ConsumerRecord<byte[], byte[]> withValue(ConsumerRecord<byte[], byte[]> r, byte[] value) {
        return new ConsumerRecord<>(r.topic(), r.partition(), r.offset(), r.timestamp(), r.timestampType(),
                r.serializedKeySize(), -1, r.key(), value, r.headers(), r.leaderEpoch());
    }

    private static List<GenericRecord> read(Path file) throws Exception {
        List<GenericRecord> rows = new ArrayList<>();
        try (DataFileReader<GenericRecord> reader = new DataFileReader<>(file.toFile(), new GenericDatumReader<>())) {
            reader.forEach(rows::add);
        }
        return rows;
    }
}
