package io.sluice.storage.backend;

import java.util.Optional;
import java.util.UUID;

/**
 * The name of a staged file on a file system (local, HDFS): {@code <uuid>~<final path with / as ~>}, so that listing
 * the staging folder alone tells where each file belongs, and two writers of the same final path never share a
 * staged file.
 *
 * <p>Threading: stateless.
 */
final class StagedName {

    private static final char SEPARATOR = '~';

    private StagedName() {
    }

    /** A fresh staged name for a file that will appear at {@code path}. */
    static String of(String path) {
        return UUID.randomUUID() + String.valueOf(SEPARATOR) + path.replace('/', SEPARATOR);
    }

    /** The final path a staged name stands for, or empty for a name this scheme did not make. */
    static Optional<String> pathOf(String name) {
        int separator = name.indexOf(SEPARATOR);
        return separator > 0 ? Optional.of(name.substring(separator + 1).replace(SEPARATOR, '/')) : Optional.empty();
    }
}
