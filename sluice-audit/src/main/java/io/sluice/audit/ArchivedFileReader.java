package io.sluice.audit;

import io.sluice.storage.backend.StorageBackend;
import io.sluice.storage.format.ArchivedRows;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Reads one visible file's rows: downloads it into the work directory (readers of some formats need random access),
 * reads it with its format's {@link ArchivedRows}, deletes the copy. A file that is damaged is told apart from storage
 * that fails: the first is an {@link UnreadableFileException} (the file goes into the report), the second an
 * {@link IOException} (the audit cannot go on).
 *
 * <p>Threading: safe for concurrent use on different files.
 */
final class ArchivedFileReader {

    /** The file itself cannot be read; the message says where and why. */
    static final class UnreadableFileException extends Exception {
        private static final long serialVersionUID = 1L;

        UnreadableFileException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private final StorageBackend storage;
    private final Path workDir;
    private final AtomicLong copies = new AtomicLong();

    ArchivedFileReader(StorageBackend storage, Path workDir) {
        this.storage = storage;
        this.workDir = workDir;
    }

    void read(String path, ArchivedRows rows, ArchivedRows.Visitor visitor) throws IOException, UnreadableFileException {
        // the copy keeps the file's name: readers may look at the extension
        Path copy = workDir.resolve(copies.incrementAndGet() + "-" + SluiceFileName.fileNameOf(path));
        try {
            try {
                storage.download(path, copy);
            } catch (NoSuchFileException e) {
                throw new UnreadableFileException("it was listed, but was gone when it was read", e);
            }
            try {
                rows.read(copy, visitor);
            } catch (IOException | RuntimeException e) {
                // a reader names the file it was given; the report names the archived file next to the reason
                String reason = String.valueOf(e.getMessage());
                if (reason.startsWith(copy + ": ")) {
                    reason = reason.substring(copy.toString().length() + 2);
                }
                throw new UnreadableFileException(reason.replace(copy.toString(), path), e);
            }
        } finally {
            Files.deleteIfExists(copy);
        }
    }
}
