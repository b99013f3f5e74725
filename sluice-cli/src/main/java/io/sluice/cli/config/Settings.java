package io.sluice.cli.config;

import java.util.Map;
import java.util.Optional;

/**
 * The typed values of one configuration file, each with where it was written, so that checks made later (across
 * keys, or when a pipeline starts) can still point into the file.
 *
 * <p>Immutable.
 */
public final class Settings {

    /** A key's value and the positions of the key and of the value. */
    record Bound(Object value, Position keyPosition, Position valuePosition) {
    }

    private final String file;
    private final Map<String, Bound> values;
    private final Map<String, Position> sections;

    Settings(String file, Map<String, Bound> values, Map<String, Position> sections) {
        this.file = file;
        this.values = Map.copyOf(values);
        this.sections = Map.copyOf(sections);
    }

    public String file() {
        return file;
    }

    /** The value set in the file, else the key's fixed default, else null. */
    public <T> T get(ConfigKey<T> key) {
        return find(key).orElse(key.defaultValue());
    }

    /** The value set in the file, if it is. */
    @SuppressWarnings("unchecked")
    public <T> Optional<T> find(ConfigKey<T> key) {
        Bound bound = values.get(key.path());
        return bound == null ? Optional.empty() : Optional.of((T) bound.value());
    }

    public boolean isSet(ConfigKey<?> key) {
        return values.containsKey(key.path());
    }

    /** The names of the sections the file writes directly in {@code parent} (a family's: {@code input.west} is west). */
    public java.util.List<String> sectionsIn(String parent) {
        return sections.keySet().stream().filter(p -> KeyCatalog.parent(p).equals(parent))
                .map(p -> p.substring(parent.isEmpty() ? 0 : parent.length() + 1)).sorted().toList();
    }

    public boolean hasSection(String path) {
        return sections.containsKey(path);
    }

    /**
     * Where to point for {@code key}: its value when set, else the closest enclosing section written in the file,
     * else the file's start.
     */
    public Position at(ConfigKey<?> key) {
        Bound bound = values.get(key.path());
        return bound != null ? bound.valuePosition() : sectionAt(key.section());
    }

    /** The position of a section's name in the file, or of the closest enclosing one, or the file's start. */
    public Position sectionAt(String path) {
        String p = path;
        while (!p.isEmpty()) {
            Position at = sections.get(p);
            if (at != null) {
                return at;
            }
            p = KeyCatalog.parent(p);
        }
        return Position.startOf(file);
    }
}
