package io.sluice.producer.input;

/**
 * A line that is not what its format expects (not JSON, an envelope with a field of the wrong type). The message says
 * what was expected and what was found; the caller adds where ({@link Origin}).
 */
public final class BadInputException extends Exception {

    private static final long serialVersionUID = 1L;

    public BadInputException(String message) {
        super(message);
    }
}
