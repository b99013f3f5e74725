package io.sluice.producer.input;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
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
    /**
     * The longest line kept: far beyond any record a broker takes (1 MiB by default, {@code message.max.bytes}), and
     * small enough that one line cannot fill the heap (a file with no newline, a whole JSON array on one line). A
     * longer line is read past, its offsets counted, and reported as a bad line.
     */
    public static final int MAX_LINE = 128 << 20;
    /** The buffer read as little-endian longs: the lowest byte of a word is the first in the input. */
    private static final VarHandle WORDS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long NEWLINES = 0x0A0A0A0A0A0A0A0AL;
    private static final long LOW_BITS = 0x0101010101010101L;
    private static final long HIGH_BITS = 0x8080808080808080L;

    private final InputStream in;
    private final String name;
    private final int maxLine;
    private final byte[] buffer = new byte[BUFFER];
    private int start;
    private int limit;
    private long offset;
    private long nextLine;
    private byte[] pending = new byte[256];

    private LineReader(InputStream in, String name, long offset, long nextLine, int maxLine) {
        this.in = in;
        this.maxLine = maxLine;
        this.name = name;
        this.offset = offset;
        this.nextLine = nextLine;
    }

    /** Reads {@code in} from its first byte; the first line is line 1. */
    public static LineReader of(InputStream in, String name) {
        return of(in, name, MAX_LINE);
    }

    /** As {@link #of(InputStream, String)}, with lines longer than {@code maxLine} bytes reported as too long. */
    static LineReader of(InputStream in, String name, int maxLine) {
        return new LineReader(in, name, 0, 1, maxLine);
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
        return new LineReader(in, name, offset, line, MAX_LINE);
    }

    /** The number of the line the next call reads, for messages about where reading stopped. */
    public long nextLineNumber() {
        return nextLine;
    }

    /** The next line, or null at the end of the input. */
    public InputLine next() throws IOException {
        if (start == limit && !fill()) {
            return null;
        }
        int newline = indexOfNewline();
        if (newline < 0) {
            return spanning();
        }
        // the whole line is in the buffer (nearly every line): copied once, to an array of its length
        int length = newline - start;
        if (length > maxLine) {
            start = newline + 1;
            return tooLong(length, true);
        }
        byte[] bytes = Arrays.copyOfRange(buffer, start, start + withoutReturn(buffer, length, start));
        start = newline + 1;
        return line(bytes, length, true);
    }

    /**
     * A line that runs past the buffer: gathered in {@code pending} across refills, up to {@link #MAX_LINE}; past it
     * only counted. {@code pending} goes back to its first size after a long line, so that one such line does not
     * keep its size in the heap.
     */
    private InputLine spanning() throws IOException {
        long length = 0;
        while (true) {
            boolean ended = start == limit && !fill();
            int newline = ended ? -1 : indexOfNewline();
            if (ended || newline >= 0) {
                int chunk = ended ? 0 : newline - start;
                keep(length, chunk);
                length += chunk;
                start = ended ? start : newline + 1;
                InputLine line = length > maxLine ? tooLong(length, !ended)
                        : line(Arrays.copyOf(pending, withoutReturn(pending, (int) length, 0)), length, !ended);
                if (pending.length > BUFFER) {
                    pending = new byte[256];
                }
                return line;
            }
            keep(length, limit - start);
            length += limit - start;
            start = limit;
        }
    }

    /** Copies the {@code chunk} bytes at {@code start} to {@code pending} at {@code at}, unless past the longest. */
    private void keep(long at, int chunk) {
        if (at + chunk > maxLine) {
            return;
        }
        int length = (int) at;
        if (length + chunk > pending.length) {
            pending = Arrays.copyOf(pending, Math.min(maxLine, Math.max(pending.length * 2, length + chunk)));
        }
        System.arraycopy(buffer, start, pending, length, chunk);
    }

    /** The length of the {@code length} bytes at {@code from} without a {@code \r} that ends them. */
    private static int withoutReturn(byte[] bytes, int length, int from) {
        return length > 0 && bytes[from + length - 1] == '\r' ? length - 1 : length;
    }

    /** @param length the line's length in the input, a {@code \r} before its terminator included */
    private InputLine line(byte[] bytes, long length, boolean terminated) {
        return new InputLine(origin(length, terminated), bytes);
    }

    private InputLine tooLong(long length, boolean terminated) {
        return InputLine.tooLong(origin(length, terminated));
    }

    private Origin origin(long length, boolean terminated) {
        long lineStart = offset;
        offset += length + (terminated ? 1 : 0);
        return new Origin(name, nextLine++, lineStart, offset);
    }

    /**
     * The index of the first {@code \n} in the buffer from {@code start}, or -1. Eight bytes at a time: a byte of
     * the word XORed with newlines is zero where a newline is, and the borrow trick flags the lowest zero byte. The
     * scan is most of the cost of reading a file of short lines.
     */
    private int indexOfNewline() {
        int i = start;
        for (; i + Long.BYTES <= limit; i += Long.BYTES) {
            long word = (long) WORDS.get(buffer, i) ^ NEWLINES;
            long zeros = (word - LOW_BITS) & ~word & HIGH_BITS;
            if (zeros != 0) {
                return i + (Long.numberOfTrailingZeros(zeros) >>> 3);
            }
        }
        for (; i < limit; i++) {
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
