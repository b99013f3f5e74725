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
        assertThrows(MalformedJsonException.class, () -> JsonScan.scan(bytes("{\"a\":1"), PATHS));
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

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
