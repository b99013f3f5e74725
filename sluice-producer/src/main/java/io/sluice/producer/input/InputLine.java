package io.sluice.producer.input;

/**
 * One line of an input, without its line terminator.
 *
 * @param bytes the line's bytes (shared with nobody: the reader makes a new array per line), or null for a line longer
 *     than {@link LineReader#MAX_LINE}, which is read past, not kept
 */
public record InputLine(Origin origin, byte[] bytes) {

    /** A line too long to be a record: its place is counted, its bytes dropped. */
    static InputLine tooLong(Origin origin) {
        return new InputLine(origin, null);
    }

    public boolean isTooLong() {
        return bytes == null;
    }
}
