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
    private final Map<String, Position> unreadable;

    Settings(String file, Map<String, Bound> values, Map<String, Position> sections) {
        this(file, values, sections, Map.of());
    }

    /**
     * @param unreadable the keys written with a value that is not of their type (already reported), and where: they
     *                   read as not set, so that the checks across keys still run in the same pass
     */
    Settings(String file, Map<String, Bound> values, Map<String, Position> sections, Map<String, Position> unreadable) {
        this.file = file;
        this.values = Map.copyOf(values);
        this.sections = Map.copyOf(sections);
        this.unreadable = Map.copyOf(unreadable);
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
        return bound != null ? bound.valuePosition() : unreadable.getOrDefault(key.path(), sectionAt(key.section()));
    }

    /**
     * Whether a problem found by a check across keys may come of a key whose value could not be read (and so read as
     * not set): it points at that value, or names the key. Such a problem is the check's guess at a value the user
     * did not write, so it is left out; the value's own problem says what to fix, and a second pass says the rest.
     */
    public boolean followsFromUnreadable(ConfigProblem problem) {
        for (Map.Entry<String, Position> key : unreadable.entrySet()) {
            if (problem.position().equals(key.getValue()) || names(problem.message(), key.getKey())) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code message} names the key {@code path} itself, not a longer one ({@code merge.late-topic}). */
    private static boolean names(String message, String path) {
        for (int at = message.indexOf(path); at >= 0; at = message.indexOf(path, at + 1)) {
            int after = at + path.length();
            boolean whole = after == message.length() || !isKeyChar(message.charAt(after))
                    || message.charAt(after) == '.' && (after + 1 == message.length()
                            || !isKeyChar(message.charAt(after + 1)));
            boolean start = at == 0 || !isKeyChar(message.charAt(at - 1)) && message.charAt(at - 1) != '.';
            if (whole && start) {
                return true;
            }
        }
        return false;
    }

    private static boolean isKeyChar(char c) {
        return Character.isLetterOrDigit(c) || c == '-' || c == '_' || c == '.';
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
