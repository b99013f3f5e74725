package io.sluice.producer.input;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

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

    /**
     * As {@link #open}, counting the bytes taken from the file itself (before decompression) into {@code taken}: at
     * the end of the read, a file larger than that grew after its end was reached.
     */
    public InputStream open(AtomicLong taken) throws IOException {
        if (isStdin()) {
            return open();
        }
        return Compression.decompressed(new FilterInputStream(Files.newInputStream(path)) {
            @Override
            public int read() throws IOException {
                int b = in.read();
                if (b >= 0) {
                    taken.incrementAndGet();
                }
                return b;
            }

            @Override
            public int read(byte[] buffer, int offset, int length) throws IOException {
                int n = in.read(buffer, offset, length);
                if (n > 0) {
                    taken.addAndGet(n);
                }
                return n;
            }

            @Override
            public long skip(long n) throws IOException {
                long skipped = in.skip(n);
                taken.addAndGet(Math.max(0, skipped));
                return skipped;
            }
        });
    }
}
