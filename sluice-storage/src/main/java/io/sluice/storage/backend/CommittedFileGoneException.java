package io.sluice.storage.backend;

import java.io.IOException;

/**
 * Thrown by {@link StorageBackend#publish} when a file is neither staged nor at its path: it was published and then
 * removed by something else (a lifecycle rule, a person), or its staged copy was. No crash of the archiver leaves a
 * file so, since a staged file is removed only by its publication.
 */
public final class CommittedFileGoneException extends IOException {

    private static final long serialVersionUID = 1L;

    public CommittedFileGoneException(String message, Throwable cause) {
        super(message, cause);
    }
}
