package io.sluice.storage.backend;

import java.io.IOException;
import java.io.OutputStream;

/**
 * A file being written where nobody sees it. {@link #finish} makes its bytes durable but still invisible;
 * {@link StorageBackend#publish} makes it visible later, once the Kafka commit that names it has succeeded.
 *
 * <p>Threading: one thread at a time.
 */
public interface PendingFile {

    OutputStream stream();

    /** Flushes and makes the bytes durable (fsync, uploaded parts); the file stays invisible. */
    PendingRef finish() throws IOException;

    /** Gives the file up: nothing of it will ever be visible. */
    void abort();

    /** Bytes held in memory for this file (buffers not yet written out). */
    long bufferedBytes();
}
