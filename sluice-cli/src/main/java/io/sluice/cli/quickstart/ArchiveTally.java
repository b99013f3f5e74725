package io.sluice.cli.quickstart;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The size of a local archive folder, for the quick start's summary: its files, their folders and bytes. Whether the
 * files hold every offset exactly once is the audit's to say.
 *
 * <p>Immutable.
 */
public record ArchiveTally(long files, long folders, long bytes) {

    /** Tallies the files under {@code folder}. */
    public static ArchiveTally of(Path folder) throws IOException {
        List<Path> files;
        try (Stream<Path> walk = Files.walk(folder)) {
            files = walk.filter(Files::isRegularFile).toList();
        }
        long bytes = 0;
        for (Path file : files) {
            bytes += Files.size(file);
        }
        return new ArchiveTally(files.size(), files.stream().map(Path::getParent).distinct().count(), bytes);
    }
}
