package io.sluice.cli.config;

/**
 * A place in a pipeline file, 1-based, as editors count: {@code pipeline.yaml:12:5}.
 *
 * <p>Immutable.
 */
public record Position(String file, int line, int column) {

    /** For values that come from the code (defaults), not from a file. */
    public static Position builtIn(String what) {
        return new Position(what, 0, 0);
    }

    public static Position startOf(String file) {
        return new Position(file, 1, 1);
    }

    @Override
    public String toString() {
        return line == 0 ? file : file + ":" + line + ":" + column;
    }
}
