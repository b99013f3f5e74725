package io.sluice.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Where local servers keep their data and logs: under {@value #ROOT_PROPERTY} (for tests, each module's
 * {@code target/test-servers}, set by the build; for the quick start, its {@code kafka/} folder) or else a folder in
 * the temporary directory.
 *
 * <p>Threading: safe for concurrent use.
 */
public final class LocalDirs {

    /** The system property naming the root folder. */
    public static final String ROOT_PROPERTY = "sluice.local.dir";

    private static final AtomicInteger SEQUENCE = new AtomicInteger();

    private LocalDirs() {
    }

    /** The root of everything the local servers write in this JVM. */
    public static Path root() {
        String configured = System.getProperty(ROOT_PROPERTY);
        Path root = configured != null
                ? Path.of(configured)
                : Path.of(System.getProperty("java.io.tmpdir"), "sluice-local-" + ProcessHandle.current().pid());
        return createDirectories(root);
    }

    /** A new, empty folder named after {@code prefix}, unique within this JVM and across earlier runs. */
    public static Path newDir(String prefix) {
        Path root = root();
        while (true) {
            Path candidate = root.resolve(prefix + "-" + ProcessHandle.current().pid() + "-" + SEQUENCE.incrementAndGet());
            if (!Files.exists(candidate)) {
                return createDirectories(candidate);
            }
        }
    }

    public static Path createDirectories(Path dir) {
        try {
            return Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + dir, e);
        }
    }

    /** Deletes a folder tree; missing files are fine (a server may be deleting its own files concurrently). */
    public static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (var paths = Files.walk(dir)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    // a file vanished or a folder refilled while we walked; best effort is right for throwaway server data
                }
            });
        } catch (IOException | UncheckedIOException e) {
            // best effort
        }
    }
}
