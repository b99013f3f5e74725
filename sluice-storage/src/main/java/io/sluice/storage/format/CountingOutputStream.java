package io.sluice.storage.format;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * Counts the bytes that pass through to the file, so rolling by size sees compressed sizes.
 *
 * <p>Threading: written by one thread at a time (a file's compressing tasks take turns); {@link #count()} from any.
 */
final class CountingOutputStream extends FilterOutputStream {

    /** Volatile for the writer that reads it while a compressing thread adds to it; one adder at a time. */
    private volatile long count;

    CountingOutputStream(OutputStream out) {
        super(out);
    }

    @Override
    public void write(int b) throws IOException {
        out.write(b);
        count++;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        out.write(b, off, len);
        count += len;
    }

    /** Finishing a compressed stream must not close the backend's stream: it still has to be committed. */
    @Override
    public void close() throws IOException {
        out.flush();
    }

    long count() {
        return count;
    }
}
