package io.sluice.producer.input;

/**
 * Where an input record came from.
 *
 * @param input  the input's name as the user gave it (a path, or {@code stdin})
 * @param line   its line number, from 1
 * @param offset the byte offset of the line's first byte in the (decompressed) input
 * @param end    the byte offset just after the line and its line terminator: where the next line starts
 */
public record Origin(String input, long line, long offset, long end) {

    /** {@code input:line}, as errors and the journal name a record. */
    @Override
    public String toString() {
        return input + ":" + line;
    }
}
