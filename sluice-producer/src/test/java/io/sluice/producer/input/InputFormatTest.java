package io.sluice.producer.input;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Each format turns a line into a record, or says precisely what it expected. */
class InputFormatTest {

    @Test
    void anEnvelopeGivesKeyValueHeadersPartitionAndTimestamp() throws Exception {
        InputRecord r = InputFormat.ENVELOPE.parser(null, null).parse(line("{\"key\":\"k1\",\"value\":{\"n\":1},"
                + "\"headers\":{\"h\":\"v\",\"empty\":null},\"partition\":2,\"timestamp\":1700000000000}"));
        assertEquals("k1", text(r.key()));
        assertEquals("{\"n\":1}", text(r.value()), "a value that is not a string is sent as its JSON");
        assertEquals(2, r.headers().size());
        assertEquals("v", text(r.headers().get(0).value()));
        assertNull(r.headers().get(1).value());
        assertEquals(2, r.partition());
        assertEquals(1_700_000_000_000L, r.timestamp());
        InputRecord tombstone = InputFormat.ENVELOPE.parser(null, null).parse(line("{\"key\":\"k\",\"value\":null}"));
        assertNull(tombstone.value());
    }

    @Test
    void aMalformedEnvelopeSaysWhatWasExpected() {
        RecordParser envelope = InputFormat.ENVELOPE.parser(null, null);
        assertProblem(envelope, "{\"key\":\"k\"", "expected JSON, found a syntax error at column");
        BadInputException unclosed = assertThrows(BadInputException.class, () -> envelope.parse(line("{\"key\":\"k\"")));
        assertFalse(unclosed.getMessage().contains("Source") || unclosed.getMessage().contains("marker at"),
                "the parser's notes of where it read from are not words for a person: " + unclosed.getMessage());
        assertProblem(envelope, "[1,2]", "expected an envelope, a JSON object");
        assertProblem(envelope, "{\"key\":\"k\"}", "field \"value\": missing");
        assertProblem(envelope, "{\"value\":1,\"partiton\":2}", "unexpected field \"partiton\"");
        assertProblem(envelope, "{\"value\":1,\"partition\":\"2\"}", "field \"partition\": expected a partition "
                + "number (0 or more), found a string");
        assertProblem(envelope, "{\"value\":1,\"partition\":-1}", "found -1");
        assertProblem(envelope, "{\"value\":1,\"timestamp\":1.5}", "field \"timestamp\": expected milliseconds");
        assertProblem(envelope, "{\"value\":1,\"headers\":{\"h\":3}}", "field \"headers.h\": expected a string or "
                + "null, found a number");
        assertProblem(envelope, "", "expected JSON, found an empty line");
        assertProblem(envelope, "   ", "expected JSON, found a line of blanks only");
        // what follows the envelope is not dropped unread
        assertProblem(envelope, "{\"value\":\"x\"} {\"value\":\"y\"}", "expected one JSON value, found more after "
                + "it at column 14");
        assertProblem(envelope, "{\"value\":\"x\"} junk", "expected JSON, found a syntax error at column");
    }

    @Test
    void jsonLinesAreSentAsTheyAreWithTheKeyFromAField() throws Exception {
        String json = "{\"id\": 42, \"name\": \"x\"}";
        InputRecord r = InputFormat.JSON.parser("id", null).parse(line(json));
        assertEquals("42", text(r.key()));
        assertEquals(json, text(r.value()), "the line's own bytes, spacing and all");
        assertProblem(InputFormat.JSON.parser("user", null), json, "field \"user\": expected the key, found no such "
                + "field");
        assertProblem(InputFormat.JSON.parser(null, null), "not json", "expected JSON");
        // a line is sent byte for byte: anything after its value but spaces would reach the topic
        assertProblem(InputFormat.JSON.parser(null, null), json + " trailing", "expected JSON, found a syntax error");
        assertProblem(InputFormat.JSON.parser(null, null), json + "{}", "expected one JSON value, found more");
        assertEquals(json + "  ", text(InputFormat.JSON.parser(null, null).parse(line(json + "  ")).value()));
    }

    @Test
    void plainLinesSplitAtTheFirstDelimiterOrFailWithoutOne() throws Exception {
        InputRecord r = InputFormat.LINES.parser(null, "\t").parse(line("k\tv\tw"));
        assertEquals("k", text(r.key()));
        assertEquals("v\tw", text(r.value()));
        assertNull(InputFormat.LINES.parser(null, null).parse(line("k\tv")).key());
        assertProblem(InputFormat.LINES.parser(null, "|"), "no delimiter", "the line has no '|'");
    }

    @Test
    void keyOptionsThatDoNotFitTheFormatAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> InputFormat.LINES.parser("id", null));
        assertThrows(IllegalArgumentException.class, () -> InputFormat.ENVELOPE.parser(null, ","));
    }

    private static void assertProblem(RecordParser parser, String text, String expected) {
        BadInputException e = assertThrows(BadInputException.class, () -> parser.parse(line(text)));
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }

    private static InputLine line(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        return new InputLine(new Origin("in", 1, 0, bytes.length + 1), bytes);
    }

    private static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
