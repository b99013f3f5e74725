package io.sluice.merge.order;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

class AvroTimeFieldTest {

    private static final Schema SCHEMA = new Schema.Parser().parse("""
            {"type": "record", "name": "Click", "fields": [
              {"name": "id", "type": "string"},
              {"name": "event", "type": {"type": "record", "name": "Event", "fields": [
                {"name": "at", "type": {"type": "long", "logicalType": "timestamp-millis"}},
                {"name": "micros", "type": ["null", {"type": "long", "logicalType": "timestamp-micros"}]},
                {"name": "kind", "type": "string"}]}}]}""");

    private static byte[] click(long at, boolean framed) throws Exception {
        GenericRecord event = new GenericData.Record(SCHEMA.getField("event").schema());
        event.put("at", at);
        event.put("micros", at * 1_000);
        event.put("kind", "view");
        GenericRecord click = new GenericData.Record(SCHEMA);
        click.put("id", "c1");
        click.put("event", event);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        if (framed) {
            out.write(new byte[] {0, 0, 0, 0, 42});
        }
        BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
        new GenericDatumWriter<GenericRecord>(SCHEMA).write(click, encoder);
        encoder.flush();
        return out.toByteArray();
    }

    private static ConsumerRecord<byte[], byte[]> record(byte[] value) {
        return new ConsumerRecord<>("clicks", 0, 7L, null, value);
    }

    @Test
    void aNestedTimeFieldIsReadFromPlainAndFramedValues() throws Exception {
        assertEquals(1_764_000_000_123L, EventTime.avro("value.event.at", SCHEMA, false)
                .of(record(click(1_764_000_000_123L, false))));
        assertEquals(1_764_000_000_123L, EventTime.avro("value.event.at", SCHEMA, true)
                .of(record(click(1_764_000_000_123L, true))));
        assertEquals(1_764_000_000_123L, EventTime.avro("value.event.micros", SCHEMA, false)
                .of(record(click(1_764_000_000_123L, false))), "timestamp-micros in milliseconds");
    }

    @Test
    void aFieldTheSchemaDoesNotHaveOrThatHoldsNoTimeIsRefusedAtOnce() {
        IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
                () -> EventTime.avro("value.event.when", SCHEMA, false));
        assertEquals("order-by value.event.when: the schema's record 'Event' has no field 'when' (it has [at, micros, "
                + "kind])", missing.getMessage());
        IllegalArgumentException record = assertThrows(IllegalArgumentException.class,
                () -> EventTime.avro("value.event", SCHEMA, false));
        assertTrue(record.getMessage().contains("is a record in the schema"), record.getMessage());
    }

    @Test
    void valuesThatAreNotFramedOrDoNotDecodeSayWhy() throws Exception {
        EventTime framed = EventTime.avro("value.event.at", SCHEMA, true);
        EventTimeException unframed = assertThrows(EventTimeException.class,
                () -> framed.of(record(click(1, false))));
        assertTrue(unframed.getMessage().startsWith("the value is not in the Confluent framing"),
                unframed.getMessage());
        EventTimeException garbage = assertThrows(EventTimeException.class,
                () -> EventTime.avro("value.event.at", SCHEMA, false).of(record(new byte[] {1, 2})));
        assertTrue(garbage.getMessage().startsWith("the value does not decode with the configured schema"),
                garbage.getMessage());
    }
}
