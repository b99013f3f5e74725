package io.sluice.cli.config;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * All keys of one kind of file and the sections that hold them, in reference order. The reader checks files against
 * it (unknown keys, "did you mean") and the reference is generated from it.
 *
 * <p>A section path may have {@link #ANY} as a part: a family of sections the file names itself (a merge's
 * {@code input.*}: {@code input.west}, {@code input.east}), each with the family's keys. A file's path matches a
 * family's when every other part is equal and the named part is a {@link #NAMED name}; lookups by a file's path
 * ({@link #key}, {@link #isSection}, {@link #names}, {@link #keysIn}) answer with the family's keys and sections.
 *
 * <p>Immutable.
 */
public final class KeyCatalog {

    /** The part of a section path that the file chooses. */
    public static final String ANY = "*";

    /** What a file may name a section of a family: as key names are written. */
    public static final Pattern NAMED = Pattern.compile("[a-z][a-z0-9-]*");

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

    /** The key at a file's path (a family's key for a path in a named section). */
    public Optional<ConfigKey<?>> key(String path) {
        ConfigKey<?> exact = keys.get(path);
        if (exact != null) {
            return Optional.of(exact);
        }
        return keys.values().stream().filter(k -> matches(k.path(), path)).findFirst().map(k -> k);
    }

    public boolean isSection(String path) {
        return path.isEmpty() || sections.stream().anyMatch(s -> s.path().equals(path) || matches(s.path(), path));
    }

    /** The keys directly in a section (or in its family), in reference order. */
    public List<ConfigKey<?>> keysIn(String section) {
        return keys.values().stream().filter(k -> k.section().equals(section) || matches(k.section(), section))
                .toList();
    }

    /** Names that may appear directly in a section: its keys and subsections ({@code <name>} for a family). */
    public List<String> names(String section) {
        List<String> names = new ArrayList<>();
        for (Section s : sections) {
            String parent = parent(s.path());
            if ((parent.equals(section) || matches(parent, section)) && !s.path().isEmpty()) {
                names.add(s.name().equals(ANY) ? "<name>" : s.name());
            }
        }
        keysIn(section).forEach(k -> names.add(k.name()));
        return names;
    }

    /** Every key and section path, for suggestions across sections; a family's part shows as {@code <name>}. */
    public List<String> allPaths() {
        List<String> paths = new ArrayList<>();
        sections.stream().map(Section::path).filter(p -> !p.isEmpty()).forEach(paths::add);
        paths.addAll(keys.keySet());
        return paths.stream().map(KeyCatalog::readable).toList();
    }

    /** A catalogue path as the reference and messages write it: {@code input.<name>.topic}. */
    public static String readable(String path) {
        return String.join(".", java.util.Arrays.stream(path.split("\\.")).map(p -> p.equals(ANY) ? "<name>" : p)
                .toList());
    }

    /** Whether a file's {@code path} is in the family {@code pattern} (a catalogue path with {@link #ANY}). */
    static boolean matches(String pattern, String path) {
        if (!pattern.contains(ANY)) {
            return false;
        }
        String[] want = pattern.split("\\.");
        String[] got = path.split("\\.");
        if (want.length != got.length) {
            return false;
        }
        for (int i = 0; i < want.length; i++) {
            if (want[i].equals(ANY) ? !NAMED.matcher(got[i]).matches() : !want[i].equals(got[i])) {
                return false;
            }
        }
        return true;
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
