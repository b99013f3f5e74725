package io.sluice.storage.codec;

import java.io.IOException;
import java.io.OutputStream;

/**
 * What a codec writes a file's bytes into: the file's stream, until the file is given up ({@link #detach}); then
 * nothing. So a given-up file's codec can still be closed, which frees its context (zstd's native memory), without a
 * byte reaching a stream the backend may be aborting or abandoning.
 *
 * <p>Threading: one thread at a time, as the codec's stream above it.
 */
final class DetachableStream extends OutputStream {

    private final OutputStream out;
    private boolean detached;

    DetachableStream(OutputStream out) {
        this.out = out;
    }

    /** From now on everything written, flushed or closed here is dropped. */
    void detach() {
        detached = true;
    }

    @Override
    public void write(int b) throws IOException {
        if (!detached) {
            out.write(b);
        }
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        if (!detached) {
            out.write(b, off, len);
        }
    }

    @Override
    public void flush() throws IOException {
        if (!detached) {
            out.flush();
        }
    }

    @Override
    public void close() throws IOException {
        if (!detached) {
            out.close();
        }
    }

    /** Detaches, then closes {@code codec} (which writes into this stream) for its context's sake; errors are moot. */
    void release(OutputStream codec) {
        detach();
        try {
            codec.close();
        } catch (IOException | RuntimeException ignored) {
            // the file is given up; closing only frees the codec's context
        }
    }
}
