package io.sluice.cli.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cli.Cli;
import io.sluice.cli.ExitStatus;
import io.sluice.core.wire.DeadLetterHeaders;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import io.sluice.testkit.TestDirs;
import io.sluice.testkit.kafka.TestRecords;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A topic of Avro values in the Confluent wire format, as a producer with a schema registry writes them, archived by
 * {@code sluice run --until-end} into Parquet partitioned by the values' own time (a {@code timestamp-micros}) and
 * category (an enum); DuckDB reads every row back with its values in the right folder, the two records that are not
 * Avro of the schema are in the dead-letter topic with their reasons, and {@code verify} finds every other offset
 * exactly once.
 */
class AvroValuesRunTest {

    private static final int RECORDS = 300;
    private static final int CUT_SHORT = 150;
    private static final int NOT_FRAMED = 151;
    private static final String[] CATEGORIES = {"books", "games", "music"};
    /** 2026-11-21T22:00:00Z, in microseconds. */
    private static final long BASE_MICROS = 1_795_298_400_000_000L;
    private static final String SCHEMA = """
            {"type": "record", "name": "Order", "namespace": "io.sluice.test", "fields": [
              {"name": "id", "type": "long"},
              {"name": "category", "type": {"type": "enum", "name": "Category",
                "symbols": ["books", "games", "music"]}},
              {"name": "placed_at", "type": {"type": "long", "logicalType": "timestamp-micros"}},
              {"name": "amount", "type": ["null", "double"], "default": null},
              {"name": "customer", "type": {"type": "record", "name": "Customer", "fields": [
                {"name": "country", "type": "string"}]}}
            ]}""";

    private final KafkaCluster kafka = SharedKafka.cluster();

    /**
     * On both of Kafka's group protocols: the classic one (the default) and the consumer protocol of KIP-848, whose
     * offset commits and transactions are fenced by the member epoch the broker assigns.
     */
    @ParameterizedTest(name = "group.protocol {0}")
    @ValueSource(strings = {"classic", "consumer"})
    void confluentFramedAvroValuesLandAsParquetByTheirOwnTimeAndCategoryAndBadOnesAreDeadLettered(String protocol)
            throws Exception {
        String topic = Names.unique("orders");
        String dlq = topic + "-dlq";
        kafka.createTopic(topic, 2);
        kafka.createTopic(dlq, 1);
        produce(topic);
        Path dir = TestDirs.newDir("avro-values-run");
        Files.writeString(dir.resolve("order.avsc"), SCHEMA);
        Path pipeline = dir.resolve("orders.yaml");
        Files.writeString(pipeline, """
                source:
                  bootstrap-servers: ${KAFKA_BROKERS}
                  topics: [%s]
                  group: %s-archive
                  properties:
                    group.protocol: %s
                processing:
                  dead-letter-topic: %s
                sink:
                  location: archive/
                  template: "{topic}/dt={ts:yyyy-MM-dd}/hr={ts:HH}/category={value.category}/"
                  time-field: placed_at
                  format: parquet
                  schema: order.avsc
                  value-encoding: avro-confluent
                """.formatted(topic, topic, protocol, dlq));
        Map<String, String> env = Map.of("KAFKA_BROKERS", kafka.bootstrapServers());
        Cli.Result run = Cli.run(env, "run", pipeline.toString(), "--until-end");
        assertEquals(ExitStatus.OK, run.status(), run.err());
        assertTrue(run.err().contains("stopped cleanly: " + RECORDS + " records done"), run.err());

        List<String> rows = rows(dir.resolve("archive"));
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < RECORDS; i++) {
            if (i != CUT_SHORT && i != NOT_FRAMED) {
                expected.add(expectedRow(topic, i));
            }
        }
        assertEquals(expected, rows, "every good record once, with its values, in its time's and category's folder");

        List<ConsumerRecord<byte[], byte[]>> dead = TestRecords.readAll(kafka.clientProperties(Listener.PLAINTEXT), dlq,
                Duration.ofSeconds(10));
        TreeSet<String> reasons = new TreeSet<>();
        dead.forEach(r -> reasons.add(new String(r.headers().lastHeader(DeadLetterHeaders.ERROR_MESSAGE).value(),
                StandardCharsets.UTF_8)));
        assertEquals(List.of(
                "the value is not Avro of the schema io.sluice.test.Order: it ends (9 bytes) inside field 'placed_at' "
                        + "(its schema id is 42; every value is read with the configured schema); was it written with "
                        + "another schema?",
                "the value is not in the Confluent wire format: it starts with byte 0x7B, not the magic byte 0 (plain "
                        + "Avro is value encoding avro)"), List.copyOf(reasons));
        Cli.Result verify = Cli.run(env, "verify", pipeline.toString());
        assertEquals(ExitStatus.OK, verify.status(), verify.out() + verify.err());
        assertTrue(verify.out().startsWith("OK: every expected offset of " + topic + " appears exactly once in "),
                verify.out());
    }

    private static long micros(int i) {
        return BASE_MICROS + (i % 4) * 3_600_000_000L + i * 1_000_003L;
    }

    /** How record i reads back: its folder, then its values. */
    private static String expectedRow(String topic, int i) {
        Instant at = Instant.ofEpochSecond(0, micros(i) * 1_000);
        String folder = topic + "/" + DateTimeFormatter.ofPattern("'dt='yyyy-MM-dd/'hr='HH").withZone(ZoneOffset.UTC)
                .format(at) + "/category=" + CATEGORIES[i % 3];
        return folder + "|" + i + "|" + CATEGORIES[i % 3] + "|" + micros(i) + "|" + (i % 5 == 0 ? "null" : i * 0.5)
                + "|" + (i % 2 == 0 ? "NO" : "SE");
    }

    /** The archive's rows through DuckDB, by id: folder (relative to the archive), id and the value's fields. */
    private static List<String> rows(Path archive) throws Exception {
        List<String> rows = new ArrayList<>();
        try (Connection duckdb = DriverManager.getConnection("jdbc:duckdb:");
                Statement sql = duckdb.createStatement();
                ResultSet rs = sql.executeQuery("SELECT filename, id, category, epoch_us(placed_at), amount, "
                        + "customer.country FROM read_parquet('" + archive + "/*/*/*/*/*.parquet', filename = true) "
                        + "ORDER BY id")) {
            while (rs.next()) {
                String file = archive.relativize(Path.of(rs.getString(1))).getParent().toString();
                rows.add(file + "|" + rs.getLong(2) + "|" + rs.getString(3) + "|" + rs.getLong(4) + "|"
                        + rs.getObject(5) + "|" + rs.getString(6));
            }
        }
        return rows;
    }

    private void produce(String topic) throws Exception {
        Schema schema = new Schema.Parser().parse(SCHEMA);
        Schema customer = schema.getField("customer").schema();
        GenericDatumWriter<GenericRecord> writer = new GenericDatumWriter<>(schema);
        BinaryEncoder encoder = null;
        try (var producer = new KafkaProducer<>(kafka.clientProperties(Listener.PLAINTEXT), new StringSerializer(),
                new ByteArraySerializer())) {
            for (int i = 0; i < RECORDS; i++) {
                GenericData.Record order = new GenericData.Record(schema);
                order.put("id", (long) i);
                order.put("category", new GenericData.EnumSymbol(schema.getField("category").schema(),
                        CATEGORIES[i % 3]));
                order.put("placed_at", micros(i));
                order.put("amount", i % 5 == 0 ? null : i * 0.5);
                GenericData.Record buyer = new GenericData.Record(customer);
                buyer.put("country", i % 2 == 0 ? "NO" : "SE");
                order.put("customer", buyer);
                ByteArrayOutputStream value = new ByteArrayOutputStream();
                value.write(new byte[] {0, 0, 0, 0, 42}); // the magic byte, then schema id 42 of some registry
                encoder = EncoderFactory.get().binaryEncoder(value, encoder);
                writer.write(order, encoder);
                encoder.flush();
                byte[] bytes = value.toByteArray();
                if (i == CUT_SHORT) {
                    bytes = Arrays.copyOf(bytes, 9); // the header, the id and the category, nothing of placed_at
                } else if (i == NOT_FRAMED) {
                    bytes = "{\"id\": 151}".getBytes(StandardCharsets.UTF_8);
                }
                producer.send(new ProducerRecord<>(topic, "k" + i, bytes));
            }
            producer.flush();
        }
    }
}
