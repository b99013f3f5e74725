package io.sluice.cli.config;

import java.util.Objects;

/**
 * A password, key or JAAS configuration from a pipeline file. It prints as {@code [hidden]}, so a secret that ends up
 * in a log line or an exception message by accident still does not leak; only {@link #reveal()} gives the text, at
 * the one place a client needs it.
 *
 * <p>Immutable.
 */
public final class Secret {

    private final String value;

    public Secret(String value) {
        this.value = Objects.requireNonNull(value, "value");
    }

    public String reveal() {
        return value;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Secret s && s.value.equals(value);
    }

    @Override
    public int hashCode() {
        return value.hashCode();
    }

    @Override
    public String toString() {
        return "[hidden]";
    }
}
