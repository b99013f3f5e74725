package io.sluice.cli.config;

import java.util.List;
import java.util.stream.Collectors;

/**
 * A pipeline that cannot run as written: every problem found, in file order. The command line exits with status 2.
 */
public final class ConfigException extends Exception {

    private static final long serialVersionUID = 1L;

    private final transient List<ConfigProblem> problems;

    public ConfigException(List<ConfigProblem> problems) {
        super(problems.stream().map(ConfigProblem::toString).collect(Collectors.joining("\n")));
        if (problems.isEmpty()) {
            throw new IllegalArgumentException("a configuration error needs at least one problem");
        }
        this.problems = List.copyOf(problems);
    }

    public ConfigException(Position position, String message) {
        this(List.of(new ConfigProblem(position, message)));
    }

    public List<ConfigProblem> problems() {
        return problems;
    }
}
