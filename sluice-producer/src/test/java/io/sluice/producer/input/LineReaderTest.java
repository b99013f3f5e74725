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

    /**
     * Seeded random inputs of short and long lines, {@code \r} inside and before newlines, at every alignment of the
     * eight-byte scan and across buffer refills (the stream hands out a few bytes at a time): every line and position
     * is what a byte-by-byte split finds.
     */
    @Test
    void everyLineOfRandomInputsIsWhatAByteByByteSplitFinds() throws IOException {
        for (long seed = 1; seed <= 40; seed++) {
            java.util.Random random = new java.util.Random(seed);
            java.io.ByteArrayOutputStream input = new java.io.ByteArrayOutputStream();
            int lines = 1 + random.nextInt(300);
            for (int i = 0; i < lines; i++) {
                int length = random.nextInt(10) == 0 ? random.nextInt(150_000) : random.nextInt(40);
                for (int b = 0; b < length; b++) {
                    int kind = random.nextInt(50);
                    input.write(kind == 0 ? '\r' : kind == 1 ? 0x0B : kind == 2 ? 0x8A : 'a' + random.nextInt(26));
                }
                if (i < lines - 1 || random.nextBoolean()) {
                    input.write(random.nextBoolean() ? '\n' : '\r');
                    if (input.toByteArray()[input.size() - 1] == '\r') {
                        input.write('\n');
                    }
                }
            }
            byte[] bytes = input.toByteArray();
            java.io.InputStream trickle = new ByteArrayInputStream(bytes) {
                @Override
                public synchronized int read(byte[] b, int off, int len) {
                    return super.read(b, off, Math.min(len, 1 + random.nextInt(70_000)));
                }
            };
            assertEquals(reference(bytes), all(LineReader.of(trickle, "r")).stream()
                    .map(l -> l.origin().offset() + "-" + l.origin().end() + ":" + new String(l.bytes(),
                            StandardCharsets.ISO_8859_1)).toList(), "seed " + seed);
        }
    }

    /** Lines of {@code bytes} split one byte at a time, each as {@code offset-end:text}. */
    private static List<String> reference(byte[] bytes) {
        List<String> lines = new ArrayList<>();
        int from = 0;
        for (int i = 0; i <= bytes.length; i++) {
            boolean end = i == bytes.length;
            if (end && from == bytes.length) {
                break;
            }
            if (end || bytes[i] == '\n') {
                int to = i > from && bytes[i - 1] == '\r' ? i - 1 : i;
                lines.add(from + "-" + (end ? i : i + 1) + ":"
                        + new String(bytes, from, to - from, StandardCharsets.ISO_8859_1));
                from = i + 1;
            }
        }
        return lines;
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

    /** A file with no newline, or a JSON array on one line, filled the heap: such a line is read past, not kept. */
    @Test
    void aLineLongerThanTheLongestIsReadPastAndTheNextLinesKeepTheirPlaces() throws IOException {
        String tooLongInTheBuffer = "a".repeat(150);
        String tooLongAcrossRefills = "b".repeat(300_000);
        String text = "first\n" + tooLongInTheBuffer + "\n" + tooLongAcrossRefills + "\r\nthird\n" + "c".repeat(101);
        List<InputLine> lines = all(LineReader.of(stream(text), "big", 100));
        assertEquals(5, lines.size());
        assertEquals("first", new String(lines.get(0).bytes(), StandardCharsets.UTF_8));
        assertTrue(lines.get(1).isTooLong());
        assertEquals(new Origin("big", 2, 6, 157), lines.get(1).origin());
        assertTrue(lines.get(2).isTooLong());
        assertEquals(new Origin("big", 3, 157, 157 + 300_002), lines.get(2).origin());
        assertEquals("third", new String(lines.get(3).bytes(), StandardCharsets.UTF_8));
        assertEquals(157 + 300_002, lines.get(3).origin().offset());
        assertTrue(lines.get(4).isTooLong(), "a last line without a newline too");
        assertEquals(text.length(), lines.get(4).origin().end());
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
