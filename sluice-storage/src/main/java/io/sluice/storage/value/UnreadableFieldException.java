package io.sluice.storage.value;

/**
 * A field that is there but cannot be read as what the layout needs (a time field holding {@code "yesterday"}). The
 * message completes "the path template needs value.ts, which ...": it says what the field holds and what would do.
 * The layout turns it into the default bucket or a rejection; without a stack trace, as records may be full of them.
 */
public final class UnreadableFieldException extends Exception {

    public UnreadableFieldException(String problem) {
        super(problem, null, false, false);
    }
}
