package io.sluice.storage.sink;

import io.sluice.storage.backend.StorageBackend;
import io.sluice.storage.backend.StoreUnreachableException;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.util.Optional;

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

    /** Whether the store was away (down, unreachable, past its retries) rather than refusing. */
    boolean storeAway(StorageBackend backend) {
        return backend.outage(cause).isPresent();
    }

    /**
     * The storage's reason in words. A local file system's exceptions often carry only the path ("cannot publish ...:
     * /archive/clicks", with a file in the way of the folder), so their kind is said, then the path. A store that is
     * away is said so, with the network's own word for it: Hadoop's client said "Call From vm/127.0.0.1 to
     * localhost:8020 failed on connection exception: java.net.ConnectException: Connection refused; For more details
     * see: http://wiki.apache.org/hadoop/ConnectionRefused" for a NameNode that was down.
     */
    String reason(StorageBackend backend) {
        if (!(cause instanceof StoreUnreachableException)) { // whose own words say so already
            Optional<String> away = backend.outage(cause);
            if (away.isPresent()) {
                return StoreAway.words(away.get());
            }
        }
        if (cause instanceof FileSystemException fs) {
            String why = fs.getReason() != null ? fs.getReason()
                    : fs instanceof FileAlreadyExistsException ? "something is in the way (a file where a folder goes, or "
                            + "the reverse)"
                    : fs instanceof AccessDeniedException ? "permission denied"
                    : fs instanceof NoSuchFileException ? "no such file or folder"
                    : fs instanceof NotDirectoryException ? "not a folder"
                    : fs instanceof DirectoryNotEmptyException ? "the folder is not empty"
                    : "the file system refused";
            return why + ": " + fs.getFile() + (fs.getOtherFile() == null ? "" : " -> " + fs.getOtherFile());
        }
        return String.valueOf(cause.getMessage());
    }
}
