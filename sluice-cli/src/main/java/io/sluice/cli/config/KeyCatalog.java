package io.sluice.cli.config;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * All keys of one kind of file and the sections that hold them, in reference order. The reader checks files against
 * it (unknown keys, "did you mean") and the reference is generated from it.
 *
 * <p>Immutable.
 */
public final class KeyCatalog {

    /** A section: its dotted path ("" is the top level) and what it is for. */
    public record Section(String path, String description) {

        public String name() {
            return path.substring(path.lastIndexOf('.') + 1);
        }
    }

    private final List<Section> sections;
    private final Map<String, ConfigKey<?>> keys = new LinkedHashMap<>();

    public KeyCatalog(List<Section> sections, List<ConfigKey<?>> keys) {
        this.sections = List.copyOf(sections);
        for (ConfigKey<?> key : keys) {
            if (!isSection(key.section())) {
                throw new IllegalArgumentException(key + " is in an undeclared section '" + key.section() + "'");
            }
            if (this.keys.put(key.path(), key) != null) {
                throw new IllegalArgumentException(key + " is declared twice");
            }
        }
    }

    public List<Section> sections() {
        return sections;
    }

    public List<ConfigKey<?>> keys() {
        return List.copyOf(keys.values());
    }

    public Optional<ConfigKey<?>> key(String path) {
        return Optional.ofNullable(keys.get(path));
    }

    public boolean isSection(String path) {
        return path.isEmpty() || sections.stream().anyMatch(s -> s.path().equals(path));
    }

    /** The keys directly in a section, in reference order. */
    public List<ConfigKey<?>> keysIn(String section) {
        return keys.values().stream().filter(k -> k.section().equals(section)).toList();
    }

    /** Names that may appear directly in a section: its keys and subsections. */
    public List<String> names(String section) {
        List<String> names = new ArrayList<>();
        for (Section s : sections) {
            if (parent(s.path()).equals(section) && !s.path().isEmpty()) {
                names.add(s.name());
            }
        }
        keysIn(section).forEach(k -> names.add(k.name()));
        return names;
    }

    /** Every key and section path, for suggestions across sections. */
    public List<String> allPaths() {
        List<String> paths = new ArrayList<>();
        sections.stream().map(Section::path).filter(p -> !p.isEmpty()).forEach(paths::add);
        paths.addAll(keys.keySet());
        return paths;
    }

    static String parent(String path) {
        int dot = path.lastIndexOf('.');
        return dot < 0 ? "" : path.substring(0, dot);
    }

    /** The lists one after another: a catalogue's sections or keys assembled from shared parts. */
    @SafeVarargs
    public static <T> List<T> concat(List<? extends T>... parts) {
        List<T> all = new java.util.ArrayList<>();
        for (List<? extends T> part : parts) {
            all.addAll(part);
        }
        return List.copyOf(all);
    }
}
