package io.sluice.cli.config;

/**
 * How the text of a key is read: a number, a size, a duration, one of some names... {@link Types} has them all.
 *
 * <p>Implementations are immutable and thread-safe.
 */
public interface ValueType<T> {

    /** What a value looks like, for the reference and for messages: "a size, e.g. 128MiB". */
    String describe();

    /**
     * Reads {@code value}.
     *
     * @throws InvalidValue with a message that says what is wrong and what would be right; it may quote the text,
     *     except for secret types, which never fail on their text
     */
    T parse(Value value) throws InvalidValue;

    /**
     * Whether a value is one of a few names (a format, a delivery...): such a choice decides which other keys and
     * checks apply, so when it cannot be read the checks across keys cannot run either.
     */
    default boolean isChoice() {
        return false;
    }

    /** A value that does not fit its type. */
    final class InvalidValue extends Exception {
        private static final long serialVersionUID = 1L;

        public InvalidValue(String message) {
            super(message);
        }
    }
}
