package io.sluice.core.sink;

/**
 * A sink cannot take a record and never will (malformed input, a missing field the layout needs): the engine applies
 * the failure outcome to it, with this exception's message as the reason, instead of retrying.
 */
public class RecordRejectedException extends Exception {

    private static final long serialVersionUID = 1L;

    public RecordRejectedException(String reason) {
        super(reason);
    }

    public RecordRejectedException(String reason, Throwable cause) {
        super(reason, cause);
    }
}
