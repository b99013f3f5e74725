package io.sluice.storage.backend;

import java.io.IOException;

/**
 * Thrown by {@link StorageBackend#publish} when a file is neither staged nor at its path: it was published and then
 * removed by something else (a lifecycle rule, a person), or its staged copy was. No crash of the archiver leaves a
 * file so: a staged file is removed by its publication, or by a discard of what no commit names, which removes only
 * its own staged copy (on S3, the upload its marker records, or one begun within seconds of a marker that records
 * none; it once aborted every upload of the key, a later owner's committed file among them).
 */
public final class CommittedFileGoneException extends IOException {

    private static final long serialVersionUID = 1L;

    public CommittedFileGoneException(String message, Throwable cause) {
        super(message, cause);
    }
}
