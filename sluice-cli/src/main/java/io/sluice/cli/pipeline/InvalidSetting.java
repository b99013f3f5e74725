package io.sluice.cli.pipeline;

import io.sluice.cli.config.ConfigKey;
import io.sluice.cli.config.Problems;
import io.sluice.cli.config.Settings;
import java.util.List;
import java.util.function.Supplier;

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

    /**
     * Throws for the first of {@code keys} that the file sets, unless they {@code apply}: settings of another storage or
     * format than the pipeline's.
     *
     * @param why what they apply to, and what the pipeline has instead
     */
    static void onlyIf(boolean apply, Settings settings, List<ConfigKey<?>> keys, String why) {
        for (ConfigKey<?> key : keys) {
            check(apply || !settings.isSet(key), key, why);
        }
    }

    /**
     * What {@code part} builds, or null with its problem added to {@code problems} at the key's place in the file: so
     * that one pass over a file finds every mistake rather than one per attempt.
     */
    static <T> T collect(Settings settings, Problems problems, Supplier<T> part) {
        try {
            return part.get();
        } catch (InvalidSetting e) {
            problems.add(settings.at(e.key()), e.getMessage());
            return null;
        }
    }

    /** Adds a problem at {@code key} unless {@code condition} holds; returns whether it held. */
    static boolean check(Settings settings, Problems problems, boolean condition, ConfigKey<?> key, String message) {
        if (!condition) {
            problems.add(settings.at(key), key.path() + ": " + message);
        }
        return condition;
    }

    /** Throws an {@link InvalidSetting} unless {@code condition} holds. */
    static void check(boolean condition, ConfigKey<?> key, String message) {
        if (!condition) {
            throw new InvalidSetting(key, message);
        }
    }
}
