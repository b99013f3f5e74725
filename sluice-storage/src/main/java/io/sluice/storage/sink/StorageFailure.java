package io.sluice.storage.sink;

import java.io.IOException;

/**
 * A storage call of a partition's archive that failed (a full disk, an I/O error, a store down for longer than its
 * retry time): what was being done, to which file, and the storage's own reason. It poisons the partition
 * ({@link PartitionArchive}); it is never retried record by record.
 */
final class StorageFailure extends Exception {

    private static final long serialVersionUID = 1L;

    /** What was being done: "write", "seal", "publish"... */
    final String action;
    /** The file, or null when the call was for the partition's archive as a whole. */
    final String path;
    final IOException cause;

    StorageFailure(String action, String path, IOException cause) {
        super(cause);
        this.action = action;
        this.path = path;
        this.cause = cause;
    }
}
