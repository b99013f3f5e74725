package io.sluice.storage.backend;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * A buffered stream whose buffer is allocated at the first write. A staged file's compressor holds back what it is
 * given until a chunk is full or the file is sealed, so a file with few rows (a late hour's) gets its first byte only
 * at its seal: until then it should hold no buffer (issue 17).
 *
 * <p>Threading: one thread at a time, as any stream.
 */
final class LazyBuffer extends OutputStream {

    private final OutputStream out;
    private final int size;
    /** Allocated by whichever thread writes first (a compressing task); read for the accounting by the lane. */
    private volatile OutputStream buffered;

    LazyBuffer(OutputStream out, int size) {
        this.out = out;
        this.size = size;
    }

    /** The heap its buffer holds: none before the first write. */
    long heapBytes() {
        return buffered == null ? 0 : size;
    }

    @Override
    public void write(int b) throws IOException {
        buffered().write(b);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        buffered().write(b, off, len);
    }

    @Override
    public void flush() throws IOException {
        if (buffered != null) {
            buffered.flush();
        }
    }

    @Override
    public void close() throws IOException {
        if (buffered != null) {
            buffered.close();
        } else {
            out.close();
        }
    }

    private OutputStream buffered() {
        if (buffered == null) {
            buffered = new BufferedOutputStream(out, size);
        }
        return buffered;
    }
}
