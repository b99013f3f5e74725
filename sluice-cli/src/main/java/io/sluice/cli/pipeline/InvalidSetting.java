package io.sluice.cli.pipeline;

import io.sluice.cli.config.ConfigKey;

/**
 * A setting that does not make sense with the others, found when a pipeline's immutable configuration is built. The
 * loader turns it into a problem at the key's position in the file.
 */
public final class InvalidSetting extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final transient ConfigKey<?> key;

    public InvalidSetting(ConfigKey<?> key, String message) {
        super(key.path() + ": " + message);
        this.key = key;
    }

    public ConfigKey<?> key() {
        return key;
    }

    /** Throws an {@link InvalidSetting} unless {@code condition} holds. */
    static void check(boolean condition, ConfigKey<?> key, String message) {
        if (!condition) {
            throw new InvalidSetting(key, message);
        }
    }
}
