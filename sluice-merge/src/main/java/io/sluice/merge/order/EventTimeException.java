package io.sluice.merge.order;

/** A record has no usable event time; the message says what was expected and what was found. */
public final class EventTimeException extends Exception {

    public EventTimeException(String message) {
        super(message);
    }
}
