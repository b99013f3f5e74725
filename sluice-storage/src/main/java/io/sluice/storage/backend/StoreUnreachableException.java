package io.sluice.storage.backend;

import io.sluice.core.Causes;
import io.sluice.core.ErrorWords;
import java.io.IOException;

/**
 * A store that did not answer at all (down, unreachable, a wrong endpoint) for as long as its requests were retried:
 * an outage, which a run that is a service rides out by starting again once the store answers
 * ({@link StorageBackend#outage}), where an answer that refuses (no permission, a quota) needs a person. Its words
 * say it all: the client's below them (addresses, a wiki's URL) are for {@code --verbose}.
 */
public final class StoreUnreachableException extends IOException implements ErrorWords.SaidInFull {

    public StoreUnreachableException(String message, Throwable cause) {
        super(message, cause);
    }

    /** Whether {@code failure} or one of its causes is one. */
    public static boolean in(Throwable failure) {
        return Causes.has(failure, StoreUnreachableException.class);
    }
}
