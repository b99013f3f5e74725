package io.sluice.cli.config;

import java.util.Map;
import java.util.Optional;

/**
 * Where {@code ${NAME}} in a pipeline file gets its value: the environment for user files, a fixed map for pipelines
 * the command writes itself (the quick start).
 *
 * <p>Implementations are immutable.
 */
@FunctionalInterface
public interface Variables {

    Optional<String> lookup(String name);

    static Variables environment() {
        return name -> Optional.ofNullable(System.getenv(name));
    }

    static Variables of(Map<String, String> values) {
        Map<String, String> copy = Map.copyOf(values);
        return name -> Optional.ofNullable(copy.get(name));
    }
}
