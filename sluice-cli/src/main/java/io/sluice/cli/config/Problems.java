package io.sluice.cli.config;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Collects the problems of one pipeline file, so that a user sees all of them at once rather than one per attempt.
 *
 * <p>Threading: one thread (the reader).
 */
public final class Problems {

    private final List<ConfigProblem> problems = new ArrayList<>();

    public void add(Position position, String message) {
        problems.add(new ConfigProblem(position, message));
    }

    /** Takes {@code other}'s problems as well. */
    public void addAll(Problems other) {
        problems.addAll(other.problems);
    }

    /** Leaves out the problems {@code drop} accepts. */
    public void removeIf(java.util.function.Predicate<ConfigProblem> drop) {
        problems.removeIf(drop);
    }

    public boolean any() {
        return !problems.isEmpty();
    }

    /** Throws the problems collected so far, in file order, if there are any. */
    public void throwIfAny() throws ConfigException {
        if (any()) {
            List<ConfigProblem> sorted = new ArrayList<>(problems);
            sorted.sort(Comparator.comparingInt((ConfigProblem p) -> p.position().line())
                    .thenComparingInt(p -> p.position().column()));
            throw new ConfigException(sorted);
        }
    }
}
