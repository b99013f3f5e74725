package io.sluice.storage.codec;

import java.io.OutputStream;

/**
 * A codec's stream over one file, opened by {@link Compressors}. Closing it finishes the codec's last frame but leaves
 * the file's own stream open (it belongs to the storage backend).
 *
 * <p>Threading: one thread at a time (the writer of the file).
 */
public abstract class CompressionStream extends OutputStream {

    /** Heap this stream holds while the file is open: the codec's buffers and any chunks waiting to be compressed. */
    public abstract long heapBytes();

    /**
     * Gives the file up without finishing it: once this returns, nothing more reaches the file's stream, so the backend
     * may abort or abandon it. Errors of work already under way are not reported: the file is being given up anyway.
     */
    public abstract void discard();
}
