package io.sluice.producer.input;

/**
 * A line that is not what its format expects (not JSON, an envelope with a field of the wrong type), or whose record
 * the topic would refuse ({@link #refusedByTopic}). The message says what was expected and what was found; the caller
 * adds where ({@link Origin}).
 */
public final class BadInputException extends Exception {

    private static final long serialVersionUID = 1L;

    private final boolean malformed;

    public BadInputException(String message) {
        this(message, true);
    }

    private BadInputException(String message, boolean malformed) {
        super(message);
        this.malformed = malformed;
    }

    /**
     * A well-formed line whose record the topic would refuse (a partition it lacks, a time outside what it takes): said
     * before sending, since a record the broker refuses fails every record of its batch with it.
     */
    public static BadInputException refusedByTopic(String message) {
        return new BadInputException(message, false);
    }

    /** Whether the line itself is wrong, rather than its record for this topic. */
    public boolean malformed() {
        return malformed;
    }
}
