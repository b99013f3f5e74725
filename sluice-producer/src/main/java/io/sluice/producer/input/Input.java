package io.sluice.producer.input;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * One input: a file, or standard input.
 *
 * @param name what errors and the journal call it: the path as found, or {@code stdin}
 * @param path the file, or null for standard input
 */
public record Input(String name, Path path) {

    public static final String STDIN = "stdin";

    public static Input stdin() {
        return new Input(STDIN, null);
    }

    public static Input file(Path path) {
        return new Input(path.toString(), path);
    }

    public boolean isStdin() {
        return path == null;
    }

    /** Its bytes, decompressed when they start with a known magic number. */
    public InputStream open() throws IOException {
        return Compression.decompressed(isStdin() ? System.in : Files.newInputStream(path));
    }
}
