package io.sluice.storage.format;

import static io.sluice.storage.format.FormatFixtures.EVENT_SCHEMA;
import static io.sluice.storage.format.FormatFixtures.config;
import static io.sluice.storage.format.FormatFixtures.events;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.sluice.storage.avro.AvroValues;
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

/**
 * Avro-encoded values into Parquet and Avro files: the decoded records are written as they are, no JSON on the way,
 * and make the same rows as the same events sent as JSON.
 */
class AvroValuesFormatTest {

    private static final Schema EVENT = new Schema.Parser().parse(EVENT_SCHEMA);

    @Test
    void parquetOfConfluentFramedAvroValuesHasTheRowsOfTheSameEventsAsJson() throws Exception {
        Path dir = TestDirs.newDir("parquet-avro-values");
        Path fromJson = write(dir, config("parquet", "zstd").valueSchema(EVENT_SCHEMA), events(200));
        Path fromAvro = write(dir, config("parquet", "zstd").valueSchema(EVENT_SCHEMA).valueEncoding("avro-confluent"),
                encoded(events(200), r -> AvroValues.confluent(7, r)));
        try (DuckDb duck = new DuckDb()) {
            String json = "read_parquet('" + fromJson + "')";
            String avro = "read_parquet('" + fromAvro + "')";
            assertEquals("200|0|199|19900|orders|2", duck.coordinates(" FROM " + avro));
            assertEquals("0|0", duck.row("SELECT (SELECT count(*) FROM (SELECT * FROM " + json + " EXCEPT ALL SELECT * "
                    + "FROM " + avro + ")), (SELECT count(*) FROM (SELECT * FROM " + avro + " EXCEPT ALL SELECT * FROM "
                    + json + "))"), "the same rows, keys, headers and values");
            assertEquals("key-7|70|view|8.75|3|user-7|1795168807000|7.07", duck.row("SELECT kafka_key, id, category, "
                    + "amount, len(tags), \"user\".name, epoch_ms(\"at\"), price FROM " + avro
                    + " WHERE kafka_offset = 7"));
        }
    }

    @Test
    void avroFilesOfPlainAvroValuesHoldTheDecodedRecords() throws Exception {
        Path dir = TestDirs.newDir("avro-avro-values");
        Path fromJson = write(dir, config("avro", "deflate").valueSchema(EVENT_SCHEMA), events(100));
        Path fromAvro = write(dir, config("avro", "deflate").valueSchema(EVENT_SCHEMA).valueEncoding("avro"),
                encoded(events(100), AvroValues::binary));
        List<GenericRecord> rows = read(fromAvro);
        assertEquals(100, rows.size());
        assertEquals(read(fromJson), rows);
    }

    @Test
    void aUnionThatJsonCannotTellApartIsFineForAvroValues() throws Exception {
        String schema = """
                {"type": "record", "name": "Payment", "fields": [{"name": "method", "type": [
                  {"type": "record", "name": "Card", "fields": [{"name": "last4", "type": "string"}]},
                  {"type": "record", "name": "Iban", "fields": [{"name": "country", "type": "string"}]}]}]}""";
        assertEquals("field Payment.method: the union [{\"type\":\"record\",\"name\":\"Card\",\"fields\":[{\"name\":"
                + "\"last4\",\"type\":\"string\"}]},{\"type\":\"record\",\"name\":\"Iban\",\"fields\":[{\"name\":"
                + "\"country\",\"type\":\"string\"}]}] has several branches that a JSON object could be; JSON cannot "
                + "tell them apart",
                assertThrows(IllegalArgumentException.class, () -> config("avro", "null").valueSchema(schema).build())
                        .getMessage());

        Schema payment = new Schema.Parser().parse(schema);
        Schema card = payment.getField("method").schema().getTypes().get(0);
        Schema iban = payment.getField("method").schema().getTypes().get(1);
        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (long i = 0; i < 4; i++) {
            GenericData.Record method = new GenericData.Record(i % 2 == 0 ? card : iban);
            method.put(0, i % 2 == 0 ? "4242" : "NO");
            GenericData.Record value = new GenericData.Record(payment);
            value.put(0, method);
            records.add(new ConsumerRecord<>("orders", 2, i, null, AvroValues.binary(value)));
        }
        Path file = write(TestDirs.newDir("avro-union"), config("avro", "null").valueSchema(schema)
                .valueEncoding("avro"), records);
        assertEquals(List.of("{\"last4\": \"4242\"}", "{\"country\": \"NO\"}", "{\"last4\": \"4242\"}",
                "{\"country\": \"NO\"}"), read(file).stream().map(r -> r.get("method").toString()).toList());
    }

    /** The records with their JSON events re-encoded as Avro of the event schema. */
    private static List<ConsumerRecord<byte[], byte[]>> encoded(List<ConsumerRecord<byte[], byte[]>> json,
            Function<GenericRecord, byte[]> encoding) throws Exception {
        JsonToAvro convert = new JsonToAvro(EVENT);
        List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : json) {
            GenericData.Record event = new GenericData.Record(EVENT);
            convert.fill(r.value(), event, 0);
            out.add(new ConsumerRecord<>(r.topic(), r.partition(), r.offset(), r.timestamp(), r.timestampType(),
                    r.serializedKeySize(), -1, r.key(), encoding.apply(event), r.headers(), r.leaderEpoch()));
        }
        return out;
    }

    private static Path write(Path dir, FormatConfig.Builder config, List<ConsumerRecord<byte[], byte[]>> records)
            throws Exception {
        FormatConfig built = config.keys(true).headers(true).build();
        FileFormat format = built.fileFormat();
        Path file = dir.resolve("orders+2+" + built.valueEncoding() + format.extension());
        FormatFixtures.write(format, file, records);
        return file;
    }

    private static List<GenericRecord> read(Path file) throws Exception {
        List<GenericRecord> rows = new ArrayList<>();
        try (DataFileReader<GenericRecord> reader = new DataFileReader<>(file.toFile(), new GenericDatumReader<>())) {
            reader.forEach(rows::add);
        }
        return rows;
    }
}
