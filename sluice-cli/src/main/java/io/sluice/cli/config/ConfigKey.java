package io.sluice.cli.config;

import java.util.Objects;

/**
 * One key of a configuration file, documented once, here: its dotted path, type, default and description. The
 * reference ({@code docs/configuration.md}) is generated from these, and a key is secret exactly when its type is
 * {@link Types#SECRET}.
 *
 * <p>Immutable.
 */
public final class ConfigKey<T> {

    /** Whether a key must be set, may be left out, or has a default (fixed, or worked out from other keys). */
    public enum Presence { REQUIRED, OPTIONAL, DEFAULT, COMPUTED }

    private final String path;
    private final ValueType<T> type;
    private final Presence presence;
    private final String defaultText;
    private final T defaultValue;
    private final String description;

    private ConfigKey(String path, ValueType<T> type, Presence presence, String defaultText, String description) {
        this.path = Objects.requireNonNull(path, "path");
        this.type = Objects.requireNonNull(type, "type");
        this.presence = presence;
        this.defaultText = defaultText;
        this.description = Objects.requireNonNull(description, "description");
        if (!path.matches("[a-z][a-z0-9-]*(\\.([a-z][a-z0-9-]*|\\*))*")) {
            throw new IllegalArgumentException("key paths are dotted lower-case names (" + KeyCatalog.ANY
                    + " for a section the file names): " + path);
        }
        if (presence == Presence.DEFAULT) {
            try {
                this.defaultValue = type.parse(Value.Scalar.builtIn(defaultText));
            } catch (ValueType.InvalidValue e) {
                throw new IllegalArgumentException("the default of " + path + " does not parse: " + e.getMessage(), e);
            }
        } else {
            this.defaultValue = null;
        }
    }

    public static <T> ConfigKey<T> required(String path, ValueType<T> type, String description) {
        return new ConfigKey<>(path, type, Presence.REQUIRED, null, description);
    }

    /** A key that may be left out, and then is absent (null). */
    public static <T> ConfigKey<T> optional(String path, ValueType<T> type, String description) {
        return new ConfigKey<>(path, type, Presence.OPTIONAL, null, description);
    }

    /** A key with a fixed default, written as a user would write it (and parsed now, so a bad default fails early). */
    public static <T> ConfigKey<T> withDefault(String path, ValueType<T> type, String defaultText, String description) {
        return new ConfigKey<>(path, type, Presence.DEFAULT, defaultText, description);
    }

    /** A key whose default depends on other keys; {@code rule} says how, for the reference. */
    public static <T> ConfigKey<T> computed(String path, ValueType<T> type, String rule, String description) {
        return new ConfigKey<>(path, type, Presence.COMPUTED, rule, description);
    }

    public String path() {
        return path;
    }

    /** The section's path: {@code sink.rolling} for {@code sink.rolling.max-age}; "" at the top level. */
    public String section() {
        int dot = path.lastIndexOf('.');
        return dot < 0 ? "" : path.substring(0, dot);
    }

    /** The last part of the path, as written in the file. */
    public String name() {
        return path.substring(path.lastIndexOf('.') + 1);
    }

    public ValueType<T> type() {
        return type;
    }

    public Presence presence() {
        return presence;
    }

    public boolean secret() {
        return type == (ValueType<?>) Types.SECRET;
    }

    /** The default's text (a fixed default) or rule (a computed one); null for required and optional keys. */
    public String defaultText() {
        return defaultText;
    }

    /** The parsed fixed default, or null. */
    public T defaultValue() {
        return defaultValue;
    }

    public String description() {
        return description;
    }

    /** The description's first sentence, as a phrase for messages: "the consumer group whose ...". */
    public String summary() {
        int end = description.indexOf(". ");
        String sentence = end < 0 ? description.replaceAll("\\.$", "") : description.substring(0, end);
        return Character.toLowerCase(sentence.charAt(0)) + sentence.substring(1);
    }

    @Override
    public String toString() {
        return path;
    }
}
