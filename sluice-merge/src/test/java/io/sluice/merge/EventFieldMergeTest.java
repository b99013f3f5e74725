package io.sluice.merge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.merge.audit.MergeAudit;
import io.sluice.merge.audit.MergeAuditReport;
import io.sluice.merge.order.EventTime;
import io.sluice.merge.write.MergeHeaders;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import io.sluice.testkit.kafka.TestRecords;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * Merges ordered by a field of the values, on real clusters, with record timestamps in another order than the field
 * (west's records all older than east's): the output follows the field, not the timestamps. A value without the field,
 * or one that does not decode, is a dead letter with the reason.
 */
class EventFieldMergeTest {

    private static final long T = System.currentTimeMillis() - 3_600_000;
    private static final int N = 6;

    private final KafkaCluster west = SharedKafka.cluster();
    private final KafkaCluster east = SharedKafka.second();

    /** West's timestamps are all below east's; by event time (2k*10 for west, 2k*10+5 for east) they alternate. */
    private static long[] timestamps(int input) {
        long[] ts = new long[N];
        for (int k = 0; k < N; k++) {
            ts[k] = T + input * 60_000 + (N - k); // within an input even decreasing: the field alone orders
        }
        return ts;
    }

    private static long eventTime(int input, int k) {
        return T + 2 * k * 10 + input * 5;
    }

    private MergeInputs inputs(String prefix) {
        MergeInputs inputs = new MergeInputs(List.of("west", "east"), List.of(west, east),
                List.of(Names.unique(prefix + "-west"), Names.unique(prefix + "-east")));
        west.createTopic(inputs.topics().get(0), 1);
        east.createTopic(inputs.topics().get(1), 1);
        return inputs;
    }

    @Test
    void aJsonFieldOrdersTheOutputAndAValueWithoutItIsADeadLetter() throws Exception {
        MergeInputs inputs = inputs("jsonf");
        for (int i = 0; i < 2; i++) {
            byte[][] values = new byte[N][];
            for (int k = 0; k < N; k++) {
                // the field comes after others, and east's third is ISO-8601 text
                String at = i == 1 && k == 2 ? "\"" + Instant.ofEpochMilli(eventTime(i, k)) + "\""
                        : Long.toString(eventTime(i, k));
                values[k] = ("{\"id\":\"" + i + "-" + k + "\",\"nested\":{\"at\":1},\"at\":" + at + "}")
                        .getBytes(StandardCharsets.UTF_8);
            }
            if (i == 1) {
                values[4] = "{\"id\":\"1-4\",\"when\":12}".getBytes(StandardCharsets.UTF_8); // valid, no "at"
            }
            inputs.produce(i, 0, timestamps(i), values);
        }
        EventTime orderBy = EventTime.parse("value.at");
        List<String> letters = merge(inputs, orderBy, "value.at");
        assertEquals(List.of("east:0:4"), letters);
    }

    @Test
    void anAvroFieldOrdersTheOutputAndAValueThatDoesNotDecodeIsADeadLetter() throws Exception {
        Schema schema = new Schema.Parser().parse("""
                {"type": "record", "name": "Click", "fields": [
                  {"name": "id", "type": "string"},
                  {"name": "at", "type": {"type": "long", "logicalType": "timestamp-millis"}}]}""");
        MergeInputs inputs = inputs("avrof");
        for (int i = 0; i < 2; i++) {
            byte[][] values = new byte[N][];
            for (int k = 0; k < N; k++) {
                GenericRecord click = new GenericData.Record(schema);
                click.put("id", i + "-" + k);
                click.put("at", eventTime(i, k));
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
                new GenericDatumWriter<GenericRecord>(schema).write(click, encoder);
                encoder.flush();
                values[k] = out.toByteArray();
            }
            if (i == 0) {
                values[3] = new byte[] {7}; // not a Click
            }
            inputs.produce(i, 0, timestamps(i), values);
        }
        List<String> letters = merge(inputs, EventTime.avro("value.at", schema, false), "decode");
        assertEquals(List.of("west:0:3"), letters);
    }

    /**
     * Merges by {@code orderBy} and checks the output against the field's order (and that the timestamps' order would
     * differ); returns the dead letters' sources, each of whose reasons contains {@code reason}.
     */
    private List<String> merge(MergeInputs inputs, EventTime orderBy, String reason) throws Exception {
        String output = Names.unique("field-out");
        String dead = Names.unique("field-dead");
        MergeConfig config = inputs.merge(Names.unique("m"), west, output).orderBy(orderBy).deadLetterTopic(dead)
                .build();
        try (Merge merge = Merge.start(config, MergeInputs.quickMember())) {
            assertTrue(merge.awaitEnd(Duration.ofSeconds(60)));
            assertEquals(0, merge.counts().late(), "each input is in order by the field");
            assertEquals(1, merge.counts().deadLettered());
        }
        Map<Integer, List<String>> byField = inputs.expected(orderBy);
        assertNotEquals(byField.get(0), inputs.expected().get(0).stream().filter(byField.get(0)::contains).toList(),
                "the timestamps would order the records otherwise");
        MergeInputs.assertMerged(byField, MergeInputs.sources(west, output));
        List<ConsumerRecord<byte[], byte[]>> letters = TestRecords.readAll(west.clientProperties(Listener.PLAINTEXT),
                dead, Duration.ofSeconds(30));
        for (ConsumerRecord<byte[], byte[]> letter : letters) {
            String why = new String(letter.headers().lastHeader(MergeHeaders.REASON).value(), StandardCharsets.UTF_8);
            assertTrue(why.contains(reason), why);
        }
        MergeAuditReport audit = MergeAudit.run(config);
        assertTrue(audit.ok(), audit.text());
        return letters.stream().map(r -> new String(r.headers().lastHeader(MergeHeaders.SOURCE).value(),
                StandardCharsets.US_ASCII)).toList();
    }
}
