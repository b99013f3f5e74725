package io.sluice.producer.input;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Cuts a byte stream into lines ({@code \n}, or {@code \r\n}: the {@code \r} is dropped), counting line numbers and
 * byte offsets exactly, so that a position committed after a line can be resumed from by skipping that many bytes. A
 * last line without a terminator is a line too.
 *
 * <p>Threading: one thread.
 */
public final class LineReader implements AutoCloseable {

    private static final int BUFFER = 64 * 1024;

    private final InputStream in;
    private final String name;
    private final byte[] buffer = new byte[BUFFER];
    private int start;
    private int limit;
    private long offset;
    private long nextLine;
    private byte[] pending = new byte[256];

    private LineReader(InputStream in, String name, long offset, long nextLine) {
        this.in = in;
        this.name = name;
        this.offset = offset;
        this.nextLine = nextLine;
    }

    /** Reads {@code in} from its first byte; the first line is line 1. */
    public static LineReader of(InputStream in, String name) {
        return new LineReader(in, name, 0, 1);
    }

    /**
     * Reads {@code in} from byte {@code offset}, whose line is {@code line}: the bytes before are read and dropped (a
     * compressed input cannot seek).
     *
     * @throws EOFException when the input is shorter than {@code offset}
     */
    public static LineReader resumeAt(InputStream in, String name, long offset, long line) throws IOException {
        try {
            in.skipNBytes(offset);
        } catch (EOFException e) {
            throw new EOFException(name + " is shorter than the position to resume from (byte " + offset + ")");
        }
        return new LineReader(in, name, offset, line);
    }

    /** The next line, or null at the end of the input. */
    public InputLine next() throws IOException {
        int length = 0;
        while (true) {
            if (start == limit && !fill()) {
                if (length == 0) {
                    return null;
                }
                return line(Arrays.copyOf(pending, length), length, false);
            }
            int newline = indexOfNewline();
            int end = newline < 0 ? limit : newline;
            int chunk = end - start;
            if (length + chunk > pending.length) {
                pending = Arrays.copyOf(pending, Math.max(pending.length * 2, length + chunk));
            }
            System.arraycopy(buffer, start, pending, length, chunk);
            length += chunk;
            start = newline < 0 ? limit : newline + 1;
            if (newline >= 0) {
                return line(Arrays.copyOf(pending, length), length, true);
            }
        }
    }

    private InputLine line(byte[] raw, int length, boolean terminated) {
        long lineStart = offset;
        offset += length + (terminated ? 1 : 0);
        int kept = length > 0 && raw[length - 1] == '\r' ? length - 1 : length;
        byte[] bytes = kept == raw.length ? raw : Arrays.copyOf(raw, kept);
        return new InputLine(new Origin(name, nextLine++, lineStart, offset), bytes);
    }

    private int indexOfNewline() {
        for (int i = start; i < limit; i++) {
            if (buffer[i] == '\n') {
                return i;
            }
        }
        return -1;
    }

    private boolean fill() throws IOException {
        int n = in.read(buffer, 0, BUFFER);
        if (n <= 0) {
            return false;
        }
        start = 0;
        limit = n;
        return true;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
