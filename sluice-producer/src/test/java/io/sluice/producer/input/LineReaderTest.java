package io.sluice.producer.input;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Lines with byte-exact positions: a position taken after any line resumes at the next line, and no other. */
class LineReaderTest {

    private static final String TEXT = "first\r\nsecond\n\nfourth is longer, ünïcödé\nlast without newline";

    @Test
    void linesKnowTheirNumberOffsetAndEndAcrossCrLfEmptyLinesAndAMissingLastNewline() throws IOException {
        List<InputLine> lines = all(LineReader.of(stream(TEXT), "t.txt"));
        assertEquals(List.of("first", "second", "", "fourth is longer, ünïcödé", "last without newline"),
                lines.stream().map(l -> new String(l.bytes(), StandardCharsets.UTF_8)).toList());
        assertEquals(new Origin("t.txt", 1, 0, 7), lines.get(0).origin());
        assertEquals(new Origin("t.txt", 2, 7, 14), lines.get(1).origin());
        assertEquals(new Origin("t.txt", 3, 14, 15), lines.get(2).origin());
        assertEquals(TEXT.getBytes(StandardCharsets.UTF_8).length, lines.get(4).origin().end());
        assertEquals("t.txt:4", lines.get(3).origin().toString());
    }

    @Test
    void resumingAfterAnyLineReadsExactlyTheRest() throws IOException {
        List<InputLine> lines = all(LineReader.of(stream(TEXT), "t.txt"));
        for (int i = 0; i < lines.size(); i++) {
            Origin after = lines.get(i).origin();
            List<InputLine> rest = all(LineReader.resumeAt(stream(TEXT), "t.txt", after.end(), after.line() + 1));
            assertEquals(lines.subList(i + 1, lines.size()).stream().map(InputLine::origin).toList(),
                    rest.stream().map(InputLine::origin).toList(), "after line " + after.line());
        }
    }

    @Test
    void aPositionBeyondTheEndIsAnError() {
        EOFException e = assertThrows(EOFException.class, () -> LineReader.resumeAt(stream("ab\n"), "t.txt", 10, 2));
        assertTrue(e.getMessage().contains("t.txt is shorter"), e.getMessage());
    }

    @Test
    void linesLongerThanTheBufferStayWhole() throws IOException {
        String longLine = "x".repeat(200_000);
        List<InputLine> lines = all(LineReader.of(stream(longLine + "\n" + longLine), "big"));
        assertEquals(2, lines.size());
        assertEquals(200_000, lines.get(1).bytes().length);
        assertEquals(200_001, lines.get(1).origin().offset());
    }

    static List<InputLine> all(LineReader reader) throws IOException {
        List<InputLine> lines = new ArrayList<>();
        try (reader) {
            for (InputLine l = reader.next(); l != null; l = reader.next()) {
                lines.add(l);
            }
            assertNull(reader.next());
        }
        return lines;
    }

    private static ByteArrayInputStream stream(String text) {
        return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
    }
}
