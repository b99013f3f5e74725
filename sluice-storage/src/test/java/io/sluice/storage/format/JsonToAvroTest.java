package io.sluice.storage.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.core.sink.RecordRejectedException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class JsonToAvroTest {

    private static final Schema EVENT = new Schema.Parser().parse(FormatFixtures.EVENT_SCHEMA);

    @Test
    void everyFieldOfAnEventIsConverted() throws Exception {
        GenericData.Record r = convert(EVENT, FormatFixtures.event(7));
        assertEquals(70L, r.get("id"));
        assertEquals("view", r.get("category").toString());
        assertEquals(8.75, r.get("amount"));
        assertEquals(List.of("t0", "t1", "t2"), r.get("tags"));
        GenericData.Record user = (GenericData.Record) r.get("user");
        assertEquals("user-7", user.get("name"));
        assertEquals(null, user.get("age"), "age 7 % 7 == 0 is left out: the nullable field is null");
        assertEquals(1_795_168_807_000L, r.get("at"), "2026-11-20T10:00:07Z in epoch milliseconds");
        assertEquals(new BigDecimal("7.07"), decimal((ByteBuffer) r.get("price"), 2));
        GenericData.Record defaults = convert(EVENT, "{\"id\": 1, \"category\": \"buy\", \"user\": {\"name\": \"a\"}, "
                + "\"at\": 5, \"price\": \"-12.5\"}");
        assertEquals(null, defaults.get("amount"));
        assertEquals(List.of(), defaults.get("tags"), "the default of the schema");
        assertEquals(5L, defaults.get("at"), "epoch milliseconds as they are");
        assertEquals(new BigDecimal("-12.50"), decimal((ByteBuffer) defaults.get("price"), 2), "numeric text");
    }

    @Test
    void logicalTypesTakeTheirNumbersOrTheirTextForms() throws Exception {
        Schema schema = new Schema.Parser().parse("""
                {"type": "record", "name": "T", "fields": [
                  {"name": "day", "type": {"type": "int", "logicalType": "date"}},
                  {"name": "day2", "type": {"type": "int", "logicalType": "date"}},
                  {"name": "time", "type": {"type": "int", "logicalType": "time-millis"}},
                  {"name": "micros", "type": {"type": "long", "logicalType": "timestamp-micros"}},
                  {"name": "local", "type": {"type": "long", "logicalType": "local-timestamp-millis"}},
                  {"name": "id", "type": {"type": "string", "logicalType": "uuid"}},
                  {"name": "money", "type": {"type": "fixed", "name": "Money", "size": 4, "logicalType": "decimal",
                    "precision": 6, "scale": 1}},
                  {"name": "blob", "type": "bytes"},
                  {"name": "md5", "type": {"type": "fixed", "name": "Md5", "size": 2}},
                  {"name": "attrs", "type": {"type": "map", "values": "long"}},
                  {"name": "either", "type": ["string", "long"]},
                  {"name": "wide", "type": ["int", "long"]},
                  {"name": "real", "type": ["long", "double"]},
                  {"name": "f", "type": "float"},
                  {"name": "flag", "type": "boolean"}
                ]}""");
        GenericData.Record r = convert(schema, """
                {"day": "2026-11-20", "day2": 20777, "time": "10:00:01.5", "micros": "2026-11-20T10:00:00.000001+01:00",
                 "local": "2026-11-20T10:00:00", "id": "123e4567-e89b-12d3-a456-426614174000", "money": -3.5,
                 "blob": "aGk=", "md5": "AAE=", "attrs": {"a": 1, "b": 2}, "either": 12, "wide": 3000000000,
                 "real": 1.5, "f": 2, "flag": true}""");
        assertEquals(20_777, r.get("day"));
        assertEquals(20_777, r.get("day2"));
        assertEquals(36_001_500, r.get("time"));
        assertEquals(1_795_165_200_000_001L, r.get("micros"));
        assertEquals(1_795_168_800_000L, r.get("local"));
        assertEquals("123e4567-e89b-12d3-a456-426614174000", r.get("id"));
        byte[] money = ((GenericData.Fixed) r.get("money")).bytes();
        assertEquals(new BigDecimal("-3.5"), new BigDecimal(new BigInteger(money), 1), "sign-extended to 4 bytes");
        assertEquals(4, money.length);
        assertEquals("hi", StandardCharsets.UTF_8.decode((ByteBuffer) r.get("blob")).toString());
        assertEquals(List.of((byte) 0, (byte) 1), List.of(((GenericData.Fixed) r.get("md5")).bytes()[0],
                ((GenericData.Fixed) r.get("md5")).bytes()[1]));
        assertEquals(Map.of("a", 1L, "b", 2L), r.get("attrs"));
        assertEquals(12L, r.get("either"), "a number picks the long branch");
        assertEquals(3_000_000_000L, r.get("wide"), "too big for int: the long branch");
        assertEquals(1.5, r.get("real"), "not an integer: the double branch");
        assertEquals(2.0f, r.get("f"));
        assertEquals(true, r.get("flag"));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "{\"id\": \"abc\"}                  | field 'id': expected long, found string \"abc\"",
        "{\"id\": 1.5}                      | field 'id': expected long, found number 1.5",
        "{\"id\": 99999999999999999999}     | field 'id': expected long, found number 99999999999999999999 (out of long range)",
        "{\"id\": null}                     | field 'id': expected long, found null",
        "{\"id\": 1, \"category\": \"sell\"} | field 'category': expected one of click, view, buy (enum Category), found string \"sell\"",
        "{\"id\": 1, \"nick\": \"x\"}        | field 'nick' is not in the schema (record Event has id, category, amount, tags, user, at, price)",
        "{\"id\": 1, \"id\": 2}              | field 'id' appears twice in the object",
        "{\"id\": 1, \"tags\": [\"a\", 2]}   | field 'tags[1]': expected string, found number 2",
        "{\"id\": 1, \"tags\": \"a\"}        | field 'tags': expected an array of string, found string \"a\"",
        "{\"id\": 1, \"amount\": \"1\"}      | field 'amount': expected null or double, found string \"1\"",
        "{\"id\": 1, \"amount\": -1e400}    | field 'amount': expected double, found number -1e400 (beyond a double's range)",
        "{\"id\": 1, \"category\": \"buy\", \"user\": {\"name\": \"a\", \"age\": \"old\"}} | field 'user.age': expected null or int, found string \"old\"",
        "{\"id\": 1, \"category\": \"buy\", \"user\": {\"name\": \"a\", \"age\": 3000000000}} | field 'user.age': expected int, found number 3000000000 (out of int range)",
        "{\"id\": 1, \"category\": \"buy\", \"user\": {\"age\": 3}} | field 'user.name' is missing; expected string (the field is not nullable and has no default)",
        "{\"id\": 1, \"category\": \"buy\", \"user\": [1]} | field 'user': expected an object (record User), found an array",
        "{\"id\": 1, \"category\": \"buy\", \"user\": {\"name\": \"a\"}, \"at\": \"yesterday\"} | field 'at': expected timestamp-millis (epoch milliseconds, or ISO-8601 date-time text with an offset), found string \"yesterday\"",
        "{\"id\": 1, \"category\": \"buy\", \"user\": {\"name\": \"a\"}, \"at\": 1, \"price\": 1.234} | field 'price': expected decimal(9,2) (a number or numeric text), found number 1.234 (more than 2 decimal places)",
        "{\"id\": 1, \"category\": \"buy\", \"user\": {\"name\": \"a\"}, \"at\": 1, \"price\": 12345678} | field 'price': expected decimal(9,2) (a number or numeric text), found number 12345678 (more than 9 digits)",
        "{\"id\": 1, \"category\": \"buy\", \"user\": {\"name\": \"a\"}, \"at\": 1} | field 'price' is missing; expected decimal(9,2) (a number or numeric text) (the field is not nullable and has no default)",
        "[1, 2]                            | the value: expected an object (record Event), found an array",
        "{\"id\": \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\"} | field 'id': expected long, found string \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...\" (50 chars)",
    })
    void aValueThatDoesNotMatchSaysWhereWhatWasExpectedAndWhatWasFound(String json, String problem) {
        RecordRejectedException e = assertThrows(RecordRejectedException.class, () -> convert(EVENT, json));
        assertEquals("the value does not match the schema: " + problem, e.getMessage());
    }

    @Test
    void aValueThatIsNotJsonSaysWhereItStops() {
        RecordRejectedException truncated = assertThrows(RecordRejectedException.class,
                () -> convert(EVENT, "{\"id\": 1, \"tags\": [\"a\""));
        assertEquals("the value is not JSON: Unexpected end-of-input: expected close marker for Array (start marker "
                + "at line: 1, column: 19) at line 1, column 23", truncated.getMessage());
        RecordRejectedException trailing = assertThrows(RecordRejectedException.class,
                () -> convert(new Schema.Parser().parse("{\"type\": \"record\", \"name\": \"E\", \"fields\": []}"),
                        "{} {}"));
        assertEquals("the value is not JSON: unexpected content after the JSON document at line 1, column 5",
                trailing.getMessage());
        RecordRejectedException empty = assertThrows(RecordRejectedException.class, () -> convert(EVENT, ""));
        assertEquals("the value is not JSON: it is empty", empty.getMessage());
    }

    @Test
    void schemasThatJsonCannotBeMatchedAgainstAreRefusedUpFront() {
        assertEquals("the value schema must be an Avro record, not string", assertThrows(
                IllegalArgumentException.class, () -> new JsonToAvro(Schema.create(Schema.Type.STRING))).getMessage());
        Schema recursive = new Schema.Parser().parse("""
                {"type": "record", "name": "Node", "fields": [
                  {"name": "next", "type": ["null", "Node"]}]}""");
        assertEquals("field Node.next: the record Node contains itself; recursive schemas are not supported",
                assertThrows(IllegalArgumentException.class, () -> new JsonToAvro(recursive)).getMessage());
        Schema twoRecords = new Schema.Parser().parse("""
                {"type": "record", "name": "R", "fields": [
                  {"name": "x", "type": [{"type": "record", "name": "A", "fields": []},
                                         {"type": "map", "values": "int"}]}]}""");
        assertEquals("field R.x: the union [{\"type\":\"record\",\"name\":\"A\",\"fields\":[]},{\"type\":\"map\","
                + "\"values\":\"int\"}] has several branches that a JSON object could be; JSON cannot tell them apart",
                assertThrows(IllegalArgumentException.class, () -> new JsonToAvro(twoRecords)).getMessage());
    }

    @Test
    void textThatIsNotValidJsonIsRejectedByTheCheckAsByTheConversionWhereverAStringIs() throws Exception {
        Schema schema = new Schema.Parser().parse("""
                {"type": "record", "name": "S", "fields": [
                  {"name": "s", "type": "string", "default": ""},
                  {"name": "opt", "type": ["null", "string"], "default": null},
                  {"name": "either", "type": ["string", "long"], "default": ""},
                  {"name": "m", "type": {"type": "map", "values": "string"}, "default": {}},
                  {"name": "a", "type": {"type": "array", "items": "string"}, "default": []},
                  {"name": "r", "type": {"type": "record", "name": "R", "fields": [{"name": "n", "type": "string"}]},
                   "default": {"n": ""}}]}""");
        Object[][] broken = {
            {"a", 0xFF, "b"}, // not UTF-8
            {"a", 0xC3}, // a character cut short
            {"a", 0xED, 0xA0, 0x80, "b"}, // an encoded surrogate (CESU-8), which decoding refuses and skipping did not
            {"a", 0x01, "b"}, // a control character not escaped
            {"a\\qb"}, // no such escape
            {"a\\u00zz"}, // a broken unicode escape
        };
        String[][] places = {{"{\"s\": \"", "\"}"}, {"{\"opt\": \"", "\"}"}, {"{\"either\": \"", "\"}"},
            {"{\"m\": {\"k\": \"", "\"}}"}, {"{\"a\": [\"x\", \"", "\"]}"}, {"{\"r\": {\"n\": \"", "\"}}"}};
        for (String[] place : places) {
            for (Object[] text : broken) {
                List<Object> parts = new java.util.ArrayList<>(List.of(place[0]));
                parts.addAll(List.of(text));
                parts.add(place[1]);
                byte[] json = bytes(parts.toArray());
                RecordRejectedException e = assertThrows(RecordRejectedException.class, () -> convert(schema, json),
                        new String(json, StandardCharsets.ISO_8859_1));
                assertTrue(e.getMessage().startsWith("the value is not JSON: "), e.getMessage());
            }
            convert(schema, place[0] + "fine \\u00e9 \u00e9 \\ud83d\\ude00" + place[1]); // and good text passes both
        }
        assertThrows(RecordRejectedException.class, () -> convert(schema, bytes("{\"s\": \"ab}")), "never closed");
        RecordRejectedException inMap = assertThrows(RecordRejectedException.class,
                () -> convert(schema, "{\"m\": {\"k\": 1}}"));
        assertEquals("the value does not match the schema: field 'm.k': expected string, found number 1",
                inMap.getMessage());
    }

    @Test
    void aStringLongerThanTheParserReadsIsRejectedByTheCheckToo() {
        // the parser checks a string's length when it makes a String of it, not when it only decodes it
        String longName = "a".repeat(20_000_001);
        RecordRejectedException e = assertThrows(RecordRejectedException.class, () -> convert(EVENT,
                "{\"id\": 1, \"category\": \"buy\", \"user\": {\"name\": \"" + longName + "\"}, \"at\": 1, "
                        + "\"price\": 1}"));
        assertTrue(e.getMessage().startsWith("the value is not JSON: String value length"), e.getMessage());
    }

    @Test
    void aConverterThatLearntOneFieldOrderReadsValuesInAnyOtherAlike() throws Exception {
        // each record guesses its next field from the last value's order; a wrong guess must cost only a lookup
        for (long seed = 1; seed <= 3; seed++) {
            readsShuffledValuesAsTheReferenceDoes(seed);
        }
    }

    private static void readsShuffledValuesAsTheReferenceDoes(long seed) throws Exception {
        JsonToAvro shared = new JsonToAvro(EVENT);
        JsonToAvro lookingUp = new JsonToAvro(EVENT, false);
        java.util.Random random = new java.util.Random(seed);
        int accepted = 0;
        for (int n = 0; n < 2_000; n++) {
            List<String> user = new java.util.ArrayList<>(List.of("\"name\": \"u" + n + "\""));
            if (random.nextBoolean()) {
                user.add("\"age\": " + n % 90);
            }
            List<String> members = new java.util.ArrayList<>(List.of("\"id\": " + n, "\"category\": \"buy\"",
                    "\"at\": " + n, "\"price\": 1"));
            if (random.nextBoolean()) {
                members.add("\"amount\": 2.5");
            }
            if (random.nextBoolean()) {
                members.add("\"tags\": [\"a\"]");
            }
            switch (random.nextInt(12)) {
                case 0 -> members.add("\"colour\": 1");
                case 1 -> members.add("\"id\": 3");
                case 2 -> members.remove(0);
                case 3 -> members.set(0, "\"\\u0069d\": " + n);
                default -> { }
            }
            if (random.nextInt(4) == 0) {
                java.util.Collections.shuffle(user, random);
                java.util.Collections.shuffle(members, random);
            }
            members.add(random.nextInt(members.size() + 1), "\"user\": {" + String.join(", ", user) + "}");
            byte[] json = ("{" + String.join(", ", members) + "}").getBytes(StandardCharsets.UTF_8);
            String expected = outcome(lookingUp, json);
            assertEquals(expected, outcome(shared, json), "seed " + seed + ", value " + n + ": "
                    + new String(json, StandardCharsets.UTF_8));
            if (expected.startsWith("{")) {
                accepted++;
                assertTrue(expected.contains("\"id\": " + n + ","), expected);
            }
        }
        assertTrue(accepted > 1_000, accepted + " of 2,000 accepted (seed " + seed + ")");
    }

    @Test
    void recordsInAnArrayShareOneGuessAndReadEveryOrderAlike() throws Exception {
        Schema schema = new Schema.Parser().parse("""
                {"type": "record", "name": "T", "fields": [
                  {"name": "items", "type": {"type": "array", "items": {"type": "record", "name": "Item", "fields": [
                    {"name": "a", "type": "long"}, {"name": "b", "type": ["null", "string"], "default": null}]}}},
                  {"name": "n", "type": "long"}]}""");
        JsonToAvro guessing = new JsonToAvro(schema);
        JsonToAvro lookingUp = new JsonToAvro(schema, false);
        for (String json : List.of(
                "{\"items\": [{\"a\": 1, \"b\": \"x\"}, {\"b\": \"y\", \"a\": 2}, {\"a\": 3}], \"n\": 1}",
                "{\"n\": 2, \"items\": [{\"b\": null, \"a\": 4}, {\"a\": 5, \"b\": \"z\"}]}",
                "{\"items\": [{\"a\": 6, \"a\": 7}], \"n\": 3}",
                "{\"items\": [{\"b\": \"w\"}], \"n\": 4}",
                "{\"items\": [{\"a\": 8, \"c\": 1}], \"n\": 5}",
                "{\"items\": [], \"n\": 6, \"n\": 7}",
                "{\"items\": [{\"a\": 9, \"b\": \"v\"}], \"n\": 8}")) {
            byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
            assertEquals(outcome(lookingUp, bytes, schema), outcome(guessing, bytes, schema), json);
        }
        assertEquals("{\"items\": [{\"a\": 9, \"b\": \"v\"}], \"n\": 8}",
                outcome(guessing, "{\"items\": [{\"a\": 9, \"b\": \"v\"}], \"n\": 8}".getBytes(
                        StandardCharsets.UTF_8), schema));
    }

    private static String outcome(JsonToAvro converter, byte[] json) {
        return outcome(converter, json, EVENT);
    }

    /** The record {@code json} converts to, or the rejection's words; and the check's, when it rejects. */
    private static String outcome(JsonToAvro converter, byte[] json, Schema schema) {
        String checked;
        try {
            converter.check(json);
            checked = "";
        } catch (RecordRejectedException e) {
            checked = " / checked: " + e.getMessage();
        }
        try {
            GenericData.Record r = new GenericData.Record(schema);
            converter.fill(json, r, 0);
            return r + checked;
        } catch (RecordRejectedException e) {
            return e.getMessage() + checked;
        }
    }

    /** Converts, and checks that {@link JsonToAvro#check} accepts and rejects the same, in the same words. */
    private static GenericData.Record convert(Schema schema, String json) throws RecordRejectedException {
        return convert(schema, json.getBytes(StandardCharsets.UTF_8));
    }

    private static GenericData.Record convert(Schema schema, byte[] json) throws RecordRejectedException {
        JsonToAvro converter = new JsonToAvro(schema);
        GenericData.Record r = new GenericData.Record(schema);
        RecordRejectedException converting = null;
        try {
            converter.fill(json, r, 0);
        } catch (RecordRejectedException e) {
            converting = e;
        }
        RecordRejectedException checking = null;
        try {
            converter.check(json);
        } catch (RecordRejectedException e) {
            checking = e;
        }
        assertEquals(converting == null ? "accepted" : converting.getMessage(),
                checking == null ? "accepted" : checking.getMessage(),
                "the check agrees with the conversion on " + new String(json, StandardCharsets.UTF_8));
        if (converting != null) {
            throw converting;
        }
        return r;
    }

    /** Text and single bytes (ints), in order. */
    private static byte[] bytes(Object... parts) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (Object part : parts) {
            if (part instanceof Integer b) {
                out.write(b);
            } else {
                out.writeBytes(((String) part).getBytes(StandardCharsets.UTF_8));
            }
        }
        return out.toByteArray();
    }

    private static BigDecimal decimal(ByteBuffer unscaled, int scale) {
        byte[] bytes = new byte[unscaled.remaining()];
        unscaled.duplicate().get(bytes);
        return new BigDecimal(new BigInteger(bytes), scale);
    }
}
