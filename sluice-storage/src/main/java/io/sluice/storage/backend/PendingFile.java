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

    /**
     * Flushes and makes the bytes durable (fsync, uploaded parts); the file stays invisible. Once only: a second call
     * throws (it must never stage the file again, nor an empty one).
     */
    PendingRef finish() throws IOException;

    /** Gives the file up: nothing of it will ever be visible. */
    void abort();

    /**
     * Gives the file up without waiting on the storage, because the storage has just failed: local resources are
     * freed, and whatever was staged remotely stays until the partition's next recovery removes it (nothing names it).
     * Backends whose {@link #abort} is local anyway need not override it.
     */
    default void abandon() {
        abort();
    }

    /** Bytes of heap held for this file (buffers not yet written out), which count against the memory budget. */
    long bufferedBytes();
}
