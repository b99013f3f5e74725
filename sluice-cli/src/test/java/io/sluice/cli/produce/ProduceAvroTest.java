package io.sluice.cli.produce;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cli.Cli;
import io.sluice.cli.ExitStatus;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import io.sluice.testkit.TestDirs;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * {@code --schema} without {@code --confluent-framing}: each value is plain Avro binary, the whole of it, that Avro's
 * own decoder reads back with the schema; a line whose value does not fit fails with its file, line, field and what the
 * schema expected. (The Confluent framing is in {@code ProduceCommandTest}.)
 */
class ProduceAvroTest {

    private static final String SCHEMA = """
            {"type": "record", "name": "Payment", "fields": [
              {"name": "id", "type": "string"},
              {"name": "amount", "type": "long"},
              {"name": "ratio", "type": "float", "default": 1.0},
              {"name": "currency", "type": {"type": "enum", "name": "Currency", "symbols": ["EUR", "USD"]}},
              {"name": "payer", "type": ["null", {"type": "record", "name": "Payer", "fields": [
                {"name": "name", "type": "string"}, {"name": "age", "type": "int"}]}], "default": null},
              {"name": "attributes", "type": {"type": "map", "values": "string"}, "default": {}},
              {"name": "digest", "type": "bytes", "default": ""}
            ]}""";

    private final KafkaCluster kafka = SharedKafka.cluster();

    @Test
    void plainAvroValuesDecodeWithTheSchemaAndABadLineSaysItsFieldAndWhatWasExpected() throws Exception {
        String topic = Names.unique("produce-avro-plain");
        kafka.createTopic(topic, 1);
        Path dir = TestDirs.newDir("produce-avro-plain");
        Path schemaFile = Files.writeString(dir.resolve("payment.avsc"), SCHEMA);
        Path input = Files.writeString(dir.resolve("payments.jsonl"), String.join("\n",
                "{\"key\":\"p1\",\"value\":{\"id\":\"p1\",\"amount\":100,\"ratio\":0.5,\"currency\":\"EUR\","
                        + "\"payer\":{\"name\":\"Ann\",\"age\":41},\"attributes\":{\"a\":\"b\"},"
                        + "\"digest\":\"\\u0000\\u00ff\"}}",
                "{\"key\":\"p2\",\"value\":{\"id\":\"p2\",\"amount\":5,\"currency\":\"USD\"}}",
                "{\"value\":{\"id\":\"p3\",\"amount\":1,\"currency\":\"EUR\","
                        + "\"payer\":{\"name\":\"Bo\",\"age\":\"x\"}}}",
                "{\"value\":{\"id\":\"p4\",\"amount\":1,\"currency\":\"GBP\"}}",
                "{\"value\":{\"id\":\"p5\",\"amount\":1,\"currency\":\"EUR\",\"digest\":\"\\u20ac\"}}",
                "{\"value\":{\"id\":\"p6\",\"amount\":1,\"currency\":\"EUR\",\"ratio\":1e40}}",
                "{\"value\":{\"id\":\"p7\",\"amount\":1,\"currency\":\"EUR\",\"attributes\":{\"k\":3}}}",
                "{\"key\":\"p8\",\"value\":null}",
                "{\"key\":\"p9\",\"value\":{\"id\":\"p9\",\"amount\":-3,\"currency\":\"EUR\",\"payer\":null}}",
                ""), StandardCharsets.UTF_8);

        Cli.Result run = Cli.run("produce", "-b", kafka.bootstrapServers(), "-t", topic, "--format", "envelope",
                "--schema", schemaFile.toString(), input.toString());

        assertEquals(ExitStatus.SOME_RECORDS_FAILED, run.status(), run.err());
        assertEquals(new ProducedRecords.Counts(9, 4, 5, 0), ProducedRecords.counts(run.err()));
        for (String failure : List.of(
                ":3: malformed line: field \"payer.age\": expected an int, found a string",
                ":4: malformed line: field \"currency\": expected one of [EUR, USD], found a string",
                ":5: malformed line: field \"digest\": expected bytes (a string of characters U+0000 to U+00FF, one "
                        + "per byte), found a string",
                ":6: malformed line: field \"ratio\": expected a float (at most 3.4028235E38 either way), found the "
                        + "number 1.0E40",
                ":7: malformed line: field \"attributes.k\": expected a string, found the number 3")) {
            assertTrue(run.err().contains(input + failure), failure + " in:\n" + run.err());
        }

        Schema schema = new Schema.Parser().parse(SCHEMA);
        Map<String, GenericRecord> byKey = new HashMap<>();
        for (ConsumerRecord<byte[], byte[]> r : ProducedRecords.read(kafka, topic)) {
            String key = new String(r.key(), StandardCharsets.UTF_8);
            if (r.value() == null) {
                byKey.put(key, null);
                continue;
            }
            BinaryDecoder decoder = DecoderFactory.get().binaryDecoder(r.value(), null);
            byKey.put(key, new GenericDatumReader<GenericRecord>(schema).read(null, decoder));
            assertTrue(decoder.isEnd(), key + ": the value is the Avro datum and nothing else (no framing)");
        }
        assertEquals(List.of("p1", "p2", "p8", "p9"), byKey.keySet().stream().sorted().toList());
        GenericRecord p1 = byKey.get("p1");
        assertEquals("{\"id\": \"p1\", \"amount\": 100, \"ratio\": 0.5, \"currency\": \"EUR\", \"payer\": "
                + "{\"name\": \"Ann\", \"age\": 41}, \"attributes\": {\"a\": \"b\"}, ", p1.toString().substring(0,
                p1.toString().indexOf("\"digest\"")));
        assertArrayEquals(new byte[] {0, (byte) 0xFF}, bytes(p1.get("digest")));
        assertEquals("{\"id\": \"p2\", \"amount\": 5, \"ratio\": 1.0, \"currency\": \"USD\", \"payer\": null, "
                + "\"attributes\": {}, \"digest\": \"\"}", byKey.get("p2").toString());
        assertNull(byKey.get("p8"), "a tombstone stays one");
        assertEquals(-3L, byKey.get("p9").get("amount"));
    }

    private static byte[] bytes(Object avroBytes) {
        ByteBuffer buffer = ((ByteBuffer) avroBytes).duplicate();
        byte[] out = new byte[buffer.remaining()];
        buffer.get(out);
        return out;
    }
}
