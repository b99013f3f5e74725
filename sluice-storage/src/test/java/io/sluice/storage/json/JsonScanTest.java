package io.sluice.storage.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class JsonScanTest {

    private static final List<String[]> PATHS = List.of(new String[] {"category"}, new String[] {"user", "country"},
            new String[] {"ts"});

    @Test
    void picksTopLevelAndNestedScalars() throws Exception {
        JsonScan s = JsonScan.scan(bytes("{\"ts\":1795000000000,\"user\":{\"id\":7,\"country\":\"NO\"},"
                + "\"tags\":[{\"category\":\"nested-in-array\"}],\"category\":\"click\"}"), PATHS);
        assertTrue(s.isObject());
        assertFalse(s.isMultiline());
        assertEquals("click", s.text(0));
        assertEquals("NO", s.text(1));
        assertEquals("1795000000000", s.text(2));
    }

    @Test
    void missingAndNullFieldsAreNull() throws Exception {
        JsonScan s = JsonScan.scan(bytes("{\"category\":null}"), PATHS);
        assertNull(s.text(0));
        assertNull(s.text(1));
    }

    @Test
    void prettyPrintedValuesAreFlaggedAndScalarsAreNotObjects() throws Exception {
        assertTrue(JsonScan.scan(bytes("{\n  \"category\": \"view\"\n}"), PATHS).isMultiline());
        assertTrue(JsonScan.scan(bytes("{\"category\":\r\"view\"}"), PATHS).isMultiline());
        assertTrue(JsonScan.scan(bytes("[1,\n2]"), PATHS).isMultiline());
        // a line break in a string is escaped, and one after the document is trimmed by the writer
        assertFalse(JsonScan.scan(bytes("{\"message\":\"a\\nb\"}\r\n"), PATHS).isMultiline());
        assertFalse(JsonScan.scan(bytes("[1,2]"), PATHS).isObject());
        assertFalse(JsonScan.scan(bytes("\"text\""), PATHS).isObject());
    }

    @Test
    void malformedJsonSaysWhere() {
        MalformedJsonException e = assertThrows(MalformedJsonException.class,
                () -> JsonScan.scan(bytes("{\"category\": \"click\", \"ts\": }"), PATHS));
        assertTrue(e.getMessage().contains("line 1, column"), e.getMessage());
        MalformedJsonException trailing = assertThrows(MalformedJsonException.class,
                () -> JsonScan.scan(bytes("{\"a\":1} {\"b\":2}"), PATHS));
        assertTrue(trailing.getMessage().contains("after the JSON document"), trailing.getMessage());
        MalformedJsonException unclosed = assertThrows(MalformedJsonException.class,
                () -> JsonScan.scan(bytes("{\"a\":1"), PATHS));
        // Jackson's nested location names a redacted source: the reason keeps only the place
        assertEquals("Unexpected end-of-input: expected close marker for Object (start marker at line: 1, column: 1) "
                + "at line 1, column 7", unclosed.getMessage());
    }

    @Test
    void onceEveryFieldIsFoundTheRestIsStillCheckedAndTheFirstOccurrenceWins() throws Exception {
        JsonScan s = JsonScan.scan(bytes("{\"ts\":1,\"category\":null,\"user\":{\"country\":\"NO\"},"
                + "\"category\":\"click\",\"user\":{\"country\":\"SE\"},\"ts\":2,\"category\":\"view\"}"), PATHS);
        assertEquals("1", s.text(2));
        assertEquals("NO", s.text(1));
        assertEquals("click", s.text(0), "a JSON null is not a find: the next occurrence counts");
        MalformedJsonException e = assertThrows(MalformedJsonException.class, () -> JsonScan.scan(
                bytes("{\"ts\":1,\"category\":\"a\",\"user\":{\"country\":\"NO\"},\"rest\":{\"x\":tru}}"), PATHS));
        assertTrue(e.getMessage().contains("line 1, column"), e.getMessage());
    }

    @Test
    void fieldsStopsOnceEveryFieldIsFoundAndFindsWhatScanFinds() throws Exception {
        String fieldsFirst = "{\"ts\":1,\"category\":null,\"user\":{\"country\":\"NO\"},\"category\":\"click\",";
        JsonScan s = JsonScan.fields(bytes(fieldsFirst + "\"rest\":{\"x\":tru}}"), PATHS);
        assertEquals(List.of("click", "NO", "1"), List.of(s.text(0), s.text(1), s.text(2)),
                "the first occurrence that is not null, as scan finds");
        assertTrue(s.isObject());
        assertThrows(MalformedJsonException.class, () -> JsonScan.scan(bytes(fieldsFirst + "\"rest\":{\"x\":tru}}"),
                PATHS), "scan checks the rest");

        // not stopped: a field still missing (or null) is looked for to the end, so a fault anywhere is found
        assertThrows(MalformedJsonException.class, () -> JsonScan.fields(bytes("{\"ts\":1,\"category\":\"a\","
                + "\"rest\":[tru]}"), PATHS));
        assertThrows(MalformedJsonException.class, () -> JsonScan.fields(bytes("{\"ts\":1,\"category\":,"
                + "\"user\":{\"country\":\"NO\"}}"), PATHS), "a fault before the last field");
        JsonScan partial = JsonScan.fields(bytes("{\"ts\":1,\"user\":{\"country\":null}}"), PATHS);
        assertEquals("1", partial.text(2));
        assertNull(partial.text(0));
        assertNull(partial.text(1));

        assertFalse(JsonScan.fields(bytes("[1, {\"category\": \"x\"}"), PATHS).isObject(), "no fields in an array");
        assertTrue(JsonScan.fields(bytes("{\"category\":\"x\" trailing"), List.of()).isObject(),
                "no paths: nothing read past the first token");
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
