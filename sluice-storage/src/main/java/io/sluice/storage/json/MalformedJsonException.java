package io.sluice.storage.json;

/** A record's value is not the JSON the layout or format needs; the message says where it stops being JSON. */
public final class MalformedJsonException extends Exception {

    private static final long serialVersionUID = 1L;

    public MalformedJsonException(String message) {
        super(message);
    }

    public MalformedJsonException(String message, Throwable cause) {
        super(message, cause);
    }
}
