package io.sluice.producer.input;

/**
 * One line of an input, without its line terminator.
 *
 * @param bytes the line's bytes (shared with nobody: the reader makes a new array per line)
 */
public record InputLine(Origin origin, byte[] bytes) {
}
