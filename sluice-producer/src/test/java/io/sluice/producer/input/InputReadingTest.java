package io.sluice.producer.input;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testkit.TestDirs;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

/** Reading inputs line by line: a read error says where, in words. */
class InputReadingTest {

    /** A truncated .gz said only "Unexpected end of ZLIB input stream" (a new user's run). */
    @Test
    void aCompressedFileCutShortSaysAtWhichLineAndWhy() throws Exception {
        ByteArrayOutputStream gz = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(gz)) {
            for (int i = 1; i <= 20_000; i++) {
                out.write(("line " + i + " " + "x".repeat(i % 50) + "\n").getBytes(StandardCharsets.UTF_8));
            }
        }
        byte[] whole = gz.toByteArray();
        Path file = Files.write(TestDirs.newDir("input-reading").resolve("cut.gz"),
                Arrays.copyOf(whole, whole.length / 2));
        List<String> read = new ArrayList<>();
        InputReading reading = new InputReading(List.of(Input.file(file)),
                line -> InputRecord.of(line.origin(), null, line.bytes()), new RatePacer(0));

        IOException e = assertThrows(IOException.class, () -> reading.run(ImportPosition.startOf(0, null),
                collecting(read, new ArrayList<>()), () -> false));
        assertEquals("cannot read " + file + " at line " + (read.size() + 1) + ": the compressed data ends early: the "
                + "file was cut short, or is still being written", e.getMessage());
    }

    /** The JDK's reader ignored anything after a gzip member that was not gzip: read as if the file ended there. */
    @Test
    void dataAfterTheGzipDataThatIsNotGzipIsAnError() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(bytes)) {
            out.write("one\ntwo\n".getBytes(StandardCharsets.UTF_8));
        }
        bytes.write("three appended as text\n".getBytes(StandardCharsets.UTF_8));
        Path file = Files.write(TestDirs.newDir("input-garbage").resolve("appended.gz"), bytes.toByteArray());
        List<String> read = new ArrayList<>();
        InputReading reading = new InputReading(List.of(Input.file(file)),
                line -> InputRecord.of(line.origin(), null, line.bytes()), new RatePacer(0));

        IOException e = assertThrows(IOException.class, () -> reading.run(ImportPosition.startOf(0, null),
                collecting(read, new ArrayList<>()), () -> false));
        assertEquals("cannot read " + file + " at line " + (read.size() + 1) + ": data that is not gzip follows the "
                + "end of the gzip data (something was appended to the file, or it is damaged)", e.getMessage());
    }

    /** A line too long to hold is a bad line in words, and reading goes on after it. */
    @Test
    void aLineLongerThanAnyRecordIsABadLineAndTheNextLinesAreRead() throws Exception {
        Path file = TestDirs.newDir("input-long").resolve("long.txt");
        try (OutputStream out = Files.newOutputStream(file)) {
            out.write("before\n".getBytes(StandardCharsets.UTF_8));
            byte[] block = new byte[1 << 20];
            Arrays.fill(block, (byte) 'x');
            for (int i = 0; i <= LineReader.MAX_LINE >> 20; i++) {
                out.write(block);
            }
            out.write("\nafter\n".getBytes(StandardCharsets.UTF_8));
        }
        List<String> read = new ArrayList<>();
        List<String> bad = new ArrayList<>();
        InputReading reading = new InputReading(List.of(Input.file(file)),
                line -> InputRecord.of(line.origin(), null, line.bytes()), new RatePacer(0));

        assertTrue(reading.run(ImportPosition.startOf(0, null), collecting(read, bad), () -> false));
        assertEquals(List.of("before", "after"), read);
        assertEquals(List.of(file + ":2: the line is longer than 128 MiB, more than any record a broker takes, and was "
                + "not read into memory: is the input cut into lines (not one JSON array on a line, not line ends "
                + "other than \\n)?"), bad);
    }

    /**
     * A file still being written is read to its end of the moment: lines written after are unsent, and the run said it
     * read the input to its end (a review). Plain and compressed, read from the start and resumed: the handler hears
     * how much was taken and what the file holds now; a file that did not grow says nothing.
     */
    @Test
    void aFileThatGrowsAfterItsEndWasReachedIsSaid() throws Exception {
        Path dir = TestDirs.newDir("input-grows");
        Path plain = Files.writeString(dir.resolve("live.log"), "one\ntwo\n");
        ByteArrayOutputStream gz = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(gz)) {
            out.write("three\n".getBytes(StandardCharsets.UTF_8));
        }
        Path compressed = Files.write(dir.resolve("live.gz"), gz.toByteArray());
        Path still = Files.writeString(dir.resolve("done.log"), "four\n");
        List<Path> files = List.of(plain, compressed, still);
        List<String> read = new ArrayList<>();
        List<String> grew = new ArrayList<>();
        InputReading.Handler handler = new InputReading.Handler() {
            final InputReading.Handler lines = collecting(read, new ArrayList<>());

            @Override
            public void inputStarted(int index, Input input) {
            }

            @Override
            public void record(InputRecord record) {
                lines.record(record);
            }

            @Override
            public void badLine(Origin origin, BadInputException problem) {
            }

            @Override
            public void inputEnded(int index) {
                if (index < 2) { // a writer appends once the reader met the end
                    try {
                        Files.writeString(files.get(index), "late\n", java.nio.file.StandardOpenOption.APPEND);
                    } catch (IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                }
            }

            @Override
            public void inputGrew(int index, Input input, long taken, long now) {
                grew.add(input.name() + " " + taken + " -> " + now);
            }
        };
        InputReading reading = new InputReading(files.stream().map(Input::file).toList(),
                line -> InputRecord.of(line.origin(), null, line.bytes()), new RatePacer(0));

        assertTrue(reading.run(ImportPosition.startOf(0, null), handler, () -> false));
        assertEquals(List.of("one", "two", "three", "four"), read);
        assertEquals(List.of(plain + " 8 -> 13", compressed + " " + gz.size() + " -> " + (gz.size() + 5)), grew);

        // resumed after "one": the bytes skipped count as taken
        grew.clear();
        read.clear();
        Files.writeString(plain, "one\ntwo\n");
        InputReading resumed = new InputReading(List.of(Input.file(plain)),
                line -> InputRecord.of(line.origin(), null, line.bytes()), new RatePacer(0));
        assertTrue(resumed.run(new ImportPosition(0, 2, 4, null), handler, () -> false));
        assertEquals(List.of("two"), read);
        assertEquals(List.of(plain + " 8 -> 13"), grew);
    }

    private static InputReading.Handler collecting(List<String> read, List<String> bad) {
        return new InputReading.Handler() {
            @Override
            public void inputStarted(int index, Input input) {
            }

            @Override
            public void record(InputRecord record) {
                read.add(new String(record.value(), StandardCharsets.UTF_8));
            }

            @Override
            public void badLine(Origin origin, BadInputException problem) {
                bad.add(origin + ": " + problem.getMessage());
            }

            @Override
            public void inputEnded(int index) {
            }
        };
    }
}
