package io.sluice.storage.avro;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.sluice.core.sink.RecordRejectedException;
import io.sluice.storage.layout.Layout;
import io.sluice.storage.value.FieldPath;
import io.sluice.storage.value.InvalidFieldPathException;
import io.sluice.storage.value.UnreadableFieldException;
import io.sluice.storage.value.ValueFields;
import io.sluice.storage.value.ValueReader;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.generic.GenericRecordBuilder;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;

/** Reading the layout's fields out of Avro values: plain and Confluent-framed, logical types, and every rejection. */
class AvroEncodingTest {

    static final Schema CLICK = new Schema.Parser().parse("""
            {"type": "record", "name": "Click", "namespace": "io.sluice.test", "fields": [
              {"name": "category", "type": "string"},
              {"name": "kind", "type": {"type": "enum", "name": "Kind", "symbols": ["WEB", "APP"]}},
              {"name": "at", "type": {"type": "long", "logicalType": "timestamp-millis"}},
              {"name": "at_us", "type": {"type": "long", "logicalType": "timestamp-micros"}},
              {"name": "epoch", "type": "long"},
              {"name": "iso", "type": ["null", "string"], "default": null},
              {"name": "day", "type": {"type": "int", "logicalType": "date"}},
              {"name": "user", "type": ["null", {"type": "record", "name": "User", "fields": [
                {"name": "country", "type": ["null", "string"], "default": null},
                {"name": "tags", "type": {"type": "array", "items": "string"}}]}], "default": null},
              {"name": "note", "type": "string"}
            ]}""");
    /** 2026-11-21T22:15:00Z. */
    static final long AT = 1_795_299_300_000L;

    private static final List<FieldPath> PATHS = List.of(FieldPath.of("category", false),
            FieldPath.of("kind", false), FieldPath.of("user.country", false), FieldPath.of("day", false),
            FieldPath.of("at", true), FieldPath.of("at_us", true), FieldPath.of("epoch", true),
            FieldPath.of("iso", true));

    static GenericRecord click(String category, String country, String iso) {
        GenericData.Record user = new GenericData.Record(CLICK.getField("user").schema().getTypes().get(1));
        user.put("country", country);
        user.put("tags", List.of("a", "b"));
        return new GenericRecordBuilder(CLICK)
                .set("category", category)
                .set("kind", new GenericData.EnumSymbol(CLICK.getField("kind").schema(), "APP"))
                .set("at", AT)
                .set("at_us", AT * 1_000 + 1)
                .set("epoch", AT + 3_600_000)
                .set("iso", iso)
                .set("day", 20_413) // 2025-11-21
                .set("user", country == null ? null : user)
                .set("note", "x".repeat(40))
                .build();
    }

    @Test
    void readsScalarsNestedFieldsAndEveryKindOfTimeWholeOrProjected() throws Exception {
        byte[] value = AvroValues.binary(click("view", "NO", "2026-11-21T23:15:00+01:00"));
        for (boolean whole : new boolean[] {true, false}) {
            ValueFields f = AvroEncoding.plain(CLICK).reader(PATHS, whole).read(value);
            assertEquals("view", f.text(0));
            assertEquals("APP", f.text(1));
            assertEquals("NO", f.text(2));
            assertEquals("2025-11-21", f.text(3), "a date is written as one");
            assertEquals(Instant.ofEpochMilli(AT), f.time(4), "timestamp-millis");
            assertEquals(Instant.ofEpochMilli(AT).plusNanos(1_000), f.time(5), "timestamp-micros");
            assertEquals(Instant.ofEpochMilli(AT + 3_600_000), f.time(6), "a plain long is epoch milliseconds");
            assertEquals(Instant.ofEpochMilli(AT), f.time(7), "ISO-8601 text with an offset");
        }
        GenericRecord projected = ((AvroFields) AvroEncoding.plain(CLICK).reader(PATHS, false).read(value)).record();
        assertEquals(List.of("category", "kind", "at", "at_us", "epoch", "iso", "day", "user"),
                projected.getSchema().getFields().stream().map(Schema.Field::name).toList(), "note is skipped");
        assertEquals(List.of("country"), projected.getSchema().getField("user").schema().getTypes().get(1)
                .getFields().stream().map(Schema.Field::name).toList(), "so are the user's tags");
        assertEquals(CLICK, ((AvroFields) AvroEncoding.plain(CLICK).reader(PATHS, true).read(value)).record()
                .getSchema(), "whole, for the writers");
    }

    @Test
    void nullFieldsAndNullRecordsOnThePathAreMissing() throws Exception {
        ValueReader reader = AvroEncoding.plain(CLICK).reader(PATHS, false);
        ValueFields f = reader.read(AvroValues.binary(click("buy", null, null)));
        assertEquals("buy", f.text(0));
        assertNull(f.text(2), "user is null, so user.country is missing");
        assertNull(f.time(7), "iso is null");
    }

    @Test
    void aTimeStringThatIsNoTimeSaysWhatItIs() throws Exception {
        ValueReader reader = AvroEncoding.plain(CLICK).reader(PATHS, false);
        ValueFields f = reader.read(AvroValues.binary(click("buy", "NO", "yesterday")));
        assertEquals("is 'yesterday', neither epoch milliseconds nor an ISO-8601 date-time with an offset",
                assertThrows(UnreadableFieldException.class, () -> f.time(7)).getMessage());
    }

    @Test
    void theConfluentWireFormatIsReadWithTheGivenSchemaWhateverItsId() throws Exception {
        ValueReader reader = AvroEncoding.confluent(CLICK).reader(PATHS, true);
        assertEquals("view", reader.read(AvroValues.confluent(4242, click("view", "NO", null))).text(0));

        assertEquals("the value is not in the Confluent wire format: it starts with byte 0x7B, not the magic byte 0 "
                + "(plain Avro is value encoding avro)", rejection(reader, "{\"category\":\"view\"}".getBytes()));
        assertEquals("the value is not in the Confluent wire format: it has 3 bytes, fewer than the format's 5-byte "
                + "header (the magic byte 0 and a 4-byte schema id)", rejection(reader, new byte[3]));
        byte[] cut = AvroValues.confluent(17, click("view", "NO", null));
        assertEquals("the value is not Avro of the schema io.sluice.test.Click: it ends (13 bytes) inside field 'at' "
                + "(its schema id is 17; every value is read with the configured schema); was it written with another "
                + "schema?", rejection(reader, Arrays.copyOf(cut, 13)));
    }

    @Test
    void malformedValuesAreRejectedWithTheFieldThePositionAndWhatWasFound() {
        ValueReader whole = AvroEncoding.plain(CLICK).reader(PATHS, true);
        byte[] value = AvroValues.binary(click("view", "NO", null));
        String prefix = "the value is not Avro of the schema io.sluice.test.Click: ";
        String suffix = "; was it written with another schema?";

        assertEquals(prefix + "it ends (5 bytes) inside field 'kind'" + suffix,
                rejection(whole, Arrays.copyOf(value, 5)));
        assertEquals(prefix + "field 'category' at byte 1: a length of 4 bytes for a string, but only 2 bytes are left"
                + suffix, rejection(whole, Arrays.copyOf(value, 3)));

        byte[] longer = Arrays.copyOf(value, value.length + 2);
        assertEquals(prefix + "the record ends at byte " + value.length + ", but the value has " + longer.length
                + " bytes" + suffix, rejection(whole, longer));

        byte[] badUnion = value.clone();
        int iso = 1 + 4 + 1 + 6 + 8 + 6; // after category "view", kind, at, at_us, epoch (zig-zag varints)
        badUnion[iso] = 14; // union branch 7
        assertEquals(prefix + "field 'iso' at byte " + (iso + 1) + ": an index out of range (of a union's branches or "
                + "an enum's symbols): Index 7 out of bounds for length 2" + suffix, rejection(whole, badUnion));

        // a garbled length must be refused before anything is allocated for it
        byte[] hugeString = {(byte) 0xFE, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x0F, 0};
        assertEquals(prefix + "field 'category' at byte 5: a length of 2147483647 bytes for a string, but only 1 bytes "
                + "are left" + suffix, rejection(whole, hugeString));
        assertEquals(prefix + "field 'category' at byte 1: a negative length -1 for a string" + suffix,
                rejection(whole, new byte[] {1, 0, 0}));
    }

    @Test
    void theLayoutTakesItsDirectoryFromAvroFieldsOrItsDefaultBucketOrRejects() throws Exception {
        String template = "{topic}/dt={ts:yyyy-MM-dd}/hr={ts:HH}/category={value.category}/"
                + "country={value.user.country}/";
        Layout byMicros = new Layout(template, "at_us", ZoneId.of("Europe/Oslo"), null);
        assertEquals("clicks/dt=2026-11-21/hr=23/category=view/country=NO/",
                directory(byMicros, AvroValues.binary(click("view", "NO", null))));

        Layout byIso = new Layout(template, "iso", ZoneOffset.UTC, "_unknown");
        assertEquals("clicks/dt=_unknown/hr=_unknown/category=buy/country=_unknown/",
                directory(byIso, AvroValues.binary(click("buy", null, null))));
        assertEquals("clicks/dt=_unknown/hr=_unknown/category=buy/country=SE/",
                directory(byIso, AvroValues.binary(click("buy", "SE", "soon"))));

        Layout strict = new Layout(template, "iso", ZoneOffset.UTC, null);
        assertEquals("the path template needs value.iso, which is 'soon', neither epoch milliseconds nor an ISO-8601 "
                + "date-time with an offset", assertThrows(RecordRejectedException.class,
                        () -> directory(strict, AvroValues.binary(click("buy", "SE", "soon")))).getMessage());
    }

    @Test
    void fieldsTheSchemaCannotGiveAreRefusedWhenTheReaderIsMade() {
        assertInvalid("{value.usr.country}: the value schema's record io.sluice.test.Click has no field 'usr'; its "
                + "fields: category, kind, at, at_us, epoch, iso, day, user, note", "usr.country", false);
        assertInvalid("{value.user.city}: the record io.sluice.test.User ('user') has no field 'city'; its fields: "
                + "country, tags", "user.city", false);
        assertInvalid("{value.category.x}: 'category' is a string in the value schema, not a record or a nullable "
                + "record, so the path cannot go on to 'x'", "category.x", false);
        assertInvalid("{value.user.tags} is an array in the value schema; the template takes fields that are "
                + "strings, enums, numbers or booleans", "user.tags", false);
        assertInvalid("the time field day is an int (date) in the value schema; a time field must be a long (epoch "
                + "milliseconds, or a timestamp-millis or timestamp-micros) or a string (ISO-8601 with an offset, or "
                + "epoch milliseconds)", "day", true);
        assertEquals("Avro values need a record schema (its fields are what the layout and the columns read), not a "
                + "string", assertThrows(IllegalArgumentException.class,
                        () -> AvroEncoding.plain(Schema.create(Schema.Type.STRING))).getMessage());
    }

    @Test
    void aRecordTypeUsedTwiceIsReadWholeRatherThanProjected() throws Exception {
        Schema twice = new Schema.Parser().parse("""
                {"type": "record", "name": "Move", "fields": [
                  {"name": "from", "type": {"type": "record", "name": "Place", "fields": [
                    {"name": "city", "type": "string"}, {"name": "zip", "type": "string"}]}},
                  {"name": "to", "type": "Place"}]}""");
        GenericRecord from = new GenericRecordBuilder(twice.getField("from").schema()).set("city", "Oslo")
                .set("zip", "0150").build();
        GenericRecord to = new GenericRecordBuilder(twice.getField("from").schema()).set("city", "Bergen")
                .set("zip", "5003").build();
        byte[] value = AvroValues.binary(new GenericRecordBuilder(twice).set("from", from).set("to", to).build());
        ValueFields f = AvroEncoding.plain(twice).reader(List.of(FieldPath.of("to.city", false)), false).read(value);
        assertEquals("Bergen", f.text(0));
        assertEquals(twice, ((AvroFields) f).record().getSchema());
    }

    private static void assertInvalid(String message, String path, boolean time) {
        InvalidFieldPathException e = assertThrows(InvalidFieldPathException.class,
                () -> AvroEncoding.plain(CLICK).reader(List.of(FieldPath.of(path, time)), false));
        assertEquals(message, e.getMessage());
        assertEquals(time, e.path().time());
    }

    private static String rejection(ValueReader reader, byte[] value) {
        return assertThrows(RecordRejectedException.class, () -> reader.read(value)).getMessage();
    }

    private static String directory(Layout layout, byte[] value) throws RecordRejectedException {
        ConsumerRecord<byte[], byte[]> record = new ConsumerRecord<>("clicks", 0, 0, 0, TimestampType.CREATE_TIME, -1,
                -1, null, value, new RecordHeaders(), Optional.empty());
        return layout.directory(record, AvroEncoding.plain(CLICK).reader(layout.fieldPaths(), false).read(value));
    }
}
