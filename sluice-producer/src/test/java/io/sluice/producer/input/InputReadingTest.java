package io.sluice.producer.input;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.sluice.testkit.TestDirs;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
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
                new InputReading.Handler() {
                    @Override
                    public void inputStarted(int index, Input input) {
                    }

                    @Override
                    public void record(InputRecord record) {
                        read.add(new String(record.value(), StandardCharsets.UTF_8));
                    }

                    @Override
                    public void badLine(Origin origin, BadInputException problem) {
                    }

                    @Override
                    public void inputEnded(int index) {
                    }
                }, () -> false));
        assertEquals("cannot read " + file + " at line " + (read.size() + 1) + ": the compressed data ends early: the "
                + "file was cut short, or is still being written (Unexpected end of ZLIB input stream)", e.getMessage());
    }
}
