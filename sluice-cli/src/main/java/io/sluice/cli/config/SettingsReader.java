package io.sluice.cli.config;

import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads a configuration file against a {@link KeyCatalog}: unknown keys (with "did you mean"), values of the wrong
 * type, and missing required keys, each reported at its line and column; all of them at once.
 *
 * <p>Threading: one instance per file.
 */
public final class SettingsReader {

    private final KeyCatalog catalog;
    private final Variables variables;

    public SettingsReader(KeyCatalog catalog, Variables variables) {
        this.catalog = catalog;
        this.variables = variables;
    }

    /**
     * @param file how to name the file in messages (the path as the user gave it)
     * @throws ConfigException with every problem found
     */
    public Settings read(String file, String text) throws ConfigException {
        Problems problems = new Problems();
        Settings settings = read(file, text, problems);
        problems.throwIfAny();
        return settings;
    }

    /**
     * Reads so that the checks that need the values can run in the same pass: unknown keys, and values of the wrong
     * type for keys that may be left out, are added to {@code problems} for the caller to throw with its own (the
     * keys known are bound all the same, the badly written ones as not set: the caller leaves out what its checks then
     * find about them, {@link Settings#followsFromUnreadable}); a problem the caller's checks would trip on (a required
     * key missing or unreadable, a file that is not YAML) is thrown at once, with the others.
     *
     * @param file how to name the file in messages (the path as the user gave it)
     * @throws ConfigException when a key known is missing or cannot be read
     */
    public Settings read(String file, String text, Problems problems) throws ConfigException {
        Problems blocking = new Problems();
        Problems unknown = new Problems();
        Value.Mapping root = new YamlReader(file, variables, blocking).read(text);
        Map<String, Settings.Bound> values = new LinkedHashMap<>();
        Map<String, Position> sections = new HashMap<>();
        Map<String, Position> unreadable = new HashMap<>();
        Set<String> written = new HashSet<>();
        Set<String> standIns = new HashSet<>();
        if (root != null) {
            bindSection("", root, new Binding(values, unreadable, blocking, unknown), sections, written, standIns);
            Settings bound = new Settings(file, values, sections);
            reportMissing(bound, sections.keySet(), written, blocking);
            // a misspelt required key is said as "did you mean", not also as missing; but it is missing all the same,
            // and the caller's checks must not run without it
            Set<String> reallyWritten = new HashSet<>(written);
            reallyWritten.removeAll(standIns);
            Problems missing = new Problems();
            reportMissing(bound, sections.keySet(), reallyWritten, missing);
            if (missing.any() && !blocking.any()) {
                unknown.throwIfAny();
            }
        }
        if (blocking.any()) {
            blocking.addAll(unknown);
            blocking.throwIfAny();
        }
        problems.addAll(unknown);
        return new Settings(file, values, sections, unreadable);
    }

    /**
     * Where binding puts what it finds: the values read, the keys whose value is not of their type, the problems that
     * stop the caller's checks ({@code blocking}) and those that do not ({@code unknown}: unknown keys, and unreadable
     * values of keys that may be left out).
     */
    private record Binding(Map<String, Settings.Bound> values, Map<String, Position> unreadable, Problems blocking,
            Problems unknown) {
    }

    private void bindSection(String section, Value.Mapping mapping, Binding binding, Map<String, Position> sections,
            Set<String> written, Set<String> standIns) {
        for (Value.Entry entry : mapping.entries()) {
            String path = section.isEmpty() ? entry.key() : section + "." + entry.key();
            Optional<ConfigKey<?>> key = catalog.key(path);
            if (key.isPresent()) {
                written.add(path);
                bindKey(path, key.get(), entry, binding);
            } else if (catalog.isSection(path)) {
                sections.put(path, entry.keyPosition());
                if (entry.value() instanceof Value.Mapping nested) {
                    bindSection(path, nested, binding, sections, written, standIns);
                } else if (!(entry.value() instanceof Value.Scalar s && s.nul())) {
                    written.add(path); // reported as it is; its keys are not also missing
                    binding.blocking().add(entry.value().position(), path + ": expected a section (keys indented "
                            + "under it: " + String.join(", ", catalog.names(path)) + "), got "
                            + entry.value().kind());
                }
            } else {
                binding.unknown().add(entry.keyPosition(), unknown(section, entry.key(), written, standIns));
            }
        }
    }

    /**
     * Binds under the file's {@code path}: for a key of a named section ({@code input.west.topic}) it is not the key's.
     * A value not of the key's type of a key with a default (a size, a duration, a count) reads as not set, so that
     * the checks say what else is wrong in the same pass (a user fixed a size, then learnt of a missing schema, then of
     * a template's missing '/', one run at a time: issue 17). Any other stops the caller's checks: a required key
     * (they would read null), one that may be left out (they would say it is missing: a bad {@code pattern} as "give
     * the topics or a pattern"), or a choice (they would judge the other keys by its default: {@code format: parkay}
     * read as jsonl and called the schema superfluous).
     */
    private static void bindKey(String path, ConfigKey<?> key, Value.Entry entry, Binding binding) {
        Value value = entry.value();
        if (value instanceof Value.Broken) {
            return;
        }
        try {
            binding.values().put(path, new Settings.Bound(key.type().parse(value), entry.keyPosition(),
                    value.position()));
        } catch (ValueType.InvalidValue e) {
            boolean hasDefault = key.presence() == ConfigKey.Presence.DEFAULT
                    || key.presence() == ConfigKey.Presence.COMPUTED;
            if (!hasDefault || key.type().isChoice()) {
                binding.blocking().add(value.position(), path + ": " + e.getMessage());
            } else {
                binding.unreadable().put(path, value.position());
                binding.unknown().add(value.position(), path + ": " + e.getMessage());
            }
        }
    }

    /**
     * The message for an unknown key. A suggested key or section counts as written: "did you mean source.group" says
     * all there is to say, without "source.group is missing" too.
     */
    private String unknown(String section, String name, Set<String> written, Set<String> standIns) {
        List<String> here = catalog.names(section);
        String where = section.isEmpty() ? "at the top level" : "in " + section;
        Optional<String> near = Suggestions.closest(name, here);
        if (near.isPresent()) {
            written.add(section.isEmpty() ? near.get() : section + "." + near.get());
            standIns.add(section.isEmpty() ? near.get() : section + "." + near.get());
            return "unknown key '" + name + "' " + where + "; did you mean '" + near.get() + "'?";
        }
        // the right name in the wrong place, e.g. group: at the top level instead of under source:
        Optional<String> elsewhere = catalog.allPaths().stream()
                .filter(p -> p.endsWith("." + name) || Suggestions.closest(name, List.of(lastPart(p))).isPresent())
                .filter(p -> !KeyCatalog.parent(p).equals(section))
                .findFirst();
        if (elsewhere.isPresent()) {
            written.add(elsewhere.get());
            standIns.add(elsewhere.get());
            return "unknown key '" + name + "' " + where + "; did you mean '" + elsewhere.get() + "'?";
        }
        return "unknown key '" + name + "' " + where + "; expected one of: " + String.join(", ", here);
    }

    private static String lastPart(String path) {
        return path.substring(path.lastIndexOf('.') + 1);
    }

    /**
     * Required keys not written at all; one written with a bad value is reported as bad, not also as missing. A
     * family's required keys are required in each section of it the file names (and only there).
     */
    private void reportMissing(Settings settings, Set<String> named, Set<String> written, Problems problems) {
        for (KeyCatalog.Section top : catalog.sections()) {
            if (top.path().isEmpty() || top.path().contains(".")) {
                continue;
            }
            List<String> required = catalog.keys().stream()
                    .filter(k -> k.presence() == ConfigKey.Presence.REQUIRED && k.path().startsWith(top.path() + "."))
                    .flatMap(k -> inFile(k, named).stream())
                    .filter(path -> !written.contains(path) && !written.contains(KeyCatalog.parent(path)))
                    .toList();
            if (required.isEmpty()) {
                continue;
            }
            if (!settings.hasSection(top.path()) && !written.contains(top.path())) {
                problems.add(Position.startOf(settings.file()), "missing section '" + top.path() + "' ("
                        + top.description() + "); it needs " + String.join(", ", required));
                continue;
            }
            if (!settings.hasSection(top.path())) {
                continue;
            }
            for (String path : required) {
                ConfigKey<?> key = catalog.key(path).orElseThrow();
                String section = KeyCatalog.parent(path);
                problems.add(settings.sectionAt(section), section + ": missing required key '" + key.name()
                        + "' (" + key.summary() + ")");
            }
        }
    }

    /** The paths {@code key} has in the file: its own, or one in each named section of its family. */
    private static List<String> inFile(ConfigKey<?> key, Set<String> named) {
        if (!key.path().contains(KeyCatalog.ANY)) {
            return List.of(key.path());
        }
        return named.stream().filter(section -> KeyCatalog.matches(key.section(), section)).sorted()
                .map(section -> section + "." + key.name()).toList();
    }
}
