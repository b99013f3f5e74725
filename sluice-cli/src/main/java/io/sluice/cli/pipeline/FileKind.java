package io.sluice.cli.pipeline;

import io.sluice.cli.config.ConfigException;
import io.sluice.cli.config.Position;
import java.util.List;
import java.util.Optional;

/**
 * The three kinds of files the commands run, told apart by a top-level section only one kind has, so that a file given
 * to the wrong command is named for what it is (a pipeline file given to {@code sluice mirror} was a page of unknown
 * and missing keys).
 *
 * <p>Immutable.
 */
public enum FileKind {
    PIPELINE("a pipeline file", "sluice run", "examples/local-archive.yaml", "sink", List.of("sink")),
    MIRROR("a mirror file", "sluice mirror", "examples/mirror.yaml", "mirror", List.of("mirror", "target")),
    MERGE("a merge file", "sluice merge", "examples/merge.yaml", "merge", List.of("merge"));

    private final String description;
    private final String command;
    private final String example;
    /** The section only this kind has. */
    private final String own;
    /** The sections that say a file is of this kind when it lacks the kind asked for (a merge has a target too). */
    private final List<String> sections;

    FileKind(String description, String command, String example, String own, List<String> sections) {
        this.description = description;
        this.command = command;
        this.example = example;
        this.own = own;
        this.sections = sections;
    }

    /** The kind whose own section {@code text} has at the top level, if any (a merge's first: it has a source too). */
    static Optional<FileKind> of(String text) {
        for (FileKind kind : List.of(MERGE, MIRROR, PIPELINE)) {
            if (kind.sections.stream().anyMatch(section -> hasSection(text, section))) {
                return Optional.of(kind);
            }
        }
        return Optional.empty();
    }

    /**
     * @param file how messages name the file
     * @throws ConfigException when {@code text} lacks this kind's own section and is plainly another kind of file:
     *     what it is and which command runs it (a file with its own section and a stray one of another kind gets the
     *     unknown key's message instead)
     */
    void expect(String file, String text) throws ConfigException {
        if (hasSection(text, own)) {
            return;
        }
        Optional<FileKind> kind = of(text);
        if (kind.isPresent() && kind.get() != this) {
            FileKind is = kind.get();
            String section = is.sections.stream().filter(s -> hasSection(text, s)).findFirst().orElseThrow();
            throw new ConfigException(Position.builtIn(file), "this is " + is.description + " (it has a top-level '"
                    + section + "' section): run it with `" + is.command + " " + file + "`; `" + command + "` takes "
                    + description + ", as " + example + " shows");
        }
    }

    /** Whether a line begins with {@code section:}: a key at the top level of a YAML block mapping. */
    private static boolean hasSection(String text, String section) {
        return text.lines().anyMatch(line -> line.startsWith(section + ":"));
    }
}
