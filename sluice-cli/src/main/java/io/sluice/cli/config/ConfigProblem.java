package io.sluice.cli.config;

/**
 * One mistake in a pipeline file: where, and what to do about it. Messages never contain secret values.
 *
 * <p>Immutable.
 */
public record ConfigProblem(Position position, String message) {

    @Override
    public String toString() {
        return position + ": " + message;
    }
}
