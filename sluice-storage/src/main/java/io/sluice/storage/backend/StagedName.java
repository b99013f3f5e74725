package io.sluice.storage.backend;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.UUID;

/**
 * The name of a staged file on a file system (local, HDFS): {@code <uuid>~<final path with / as ~>}, so that listing
 * the staging folder alone tells where each file belongs, and two writers of the same final path never share a
 * staged file; {@code <uuid>~sha256-<hash of the path>} for a path too long for that.
 *
 * <p>Threading: stateless.
 */
final class StagedName {

    private static final char SEPARATOR = '~';

    private StagedName() {
    }

    /** The longest name a file system takes, in UTF-8 bytes. */
    static final int MAX_NAME_BYTES = 255;

    /** What a staged name holds instead of a path too long for it: the path's hash after this. */
    private static final String HASHED = "~sha256-";

    /**
     * A fresh staged name for a file that will appear at {@code path}. A path too long to fit in one name (every
     * folder of it in one name, with the UUID) is named by its hash: staged under its whole path, a file whose folders
     * were each short enough failed the run with "File name too long" at every start (a new user's run). Recovery
     * needs no path from the name: it publishes what the committed manifest lists, and removes the rest.
     */
    static String of(String path) {
        String name = UUID.randomUUID() + String.valueOf(SEPARATOR) + path.replace('/', SEPARATOR);
        if (name.getBytes(StandardCharsets.UTF_8).length <= MAX_NAME_BYTES) {
            return name;
        }
        return UUID.randomUUID() + HASHED + NameHash.of(path);
    }

    /**
     * The final path a staged name stands for, or empty for a name this scheme did not make; for a path named by its
     * hash, words that say so.
     */
    static Optional<String> pathOf(String name) {
        int separator = name.indexOf(SEPARATOR);
        if (separator <= 0) {
            return Optional.empty();
        }
        String rest = name.substring(separator);
        return Optional.of(rest.startsWith(HASHED) ? "(a path too long for a staged name, SHA-256 "
                + rest.substring(HASHED.length()) + ")" : rest.substring(1).replace(SEPARATOR, '/'));
    }
}
