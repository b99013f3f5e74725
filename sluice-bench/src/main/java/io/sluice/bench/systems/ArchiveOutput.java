package io.sluice.bench.systems;

import io.sluice.storage.format.ArchivedFormats;
import io.sluice.storage.format.ArchivedRows;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * What an archiving system left visible under its root: data files, their bytes, and which Kafka records their rows
 * hold, read back from the rows themselves (as the audit does), so a missing or doubled record shows. Folders whose
 * names start with {@code _} (staging, manifests) are the systems' own and not output.
 *
 * @param rows       rows read
 * @param distinct   distinct (partition, offset) pairs among them
 * @param duplicates rows holding a record that another row holds too
 */
record ArchiveOutput(long files, long bytes, long rows, long distinct, long duplicates) {

    static ArchiveOutput read(Path root) throws IOException {
        List<Path> files = new ArrayList<>();
        try (Stream<Path> tops = Files.list(root)) {
            for (Path top : tops.filter(p -> !p.getFileName().toString().startsWith("_")).toList()) {
                try (Stream<Path> walk = Files.walk(top)) {
                    walk.filter(Files::isRegularFile).forEach(files::add);
                }
            }
        }
        Map<Integer, BitSet> seen = new HashMap<>();
        long[] counts = new long[3]; // rows, distinct, duplicates
        long bytes = 0;
        for (Path file : files) {
            ArchivedRows rows = ArchivedFormats.rowsOf(file.getFileName().toString()).orElseThrow(() ->
                    new IOException(file + " is not a data file the archive writes (or its format cannot be read back "
                            + "yet: teach io.sluice.storage.format.ArchivedFormats its name)"));
            bytes += Files.size(file);
            rows.read(file, (topic, partition, offset) -> {
                BitSet offsets = seen.computeIfAbsent(partition, p -> new BitSet());
                counts[0]++;
                if (offsets.get((int) offset)) {
                    counts[2]++;
                } else {
                    offsets.set((int) offset);
                    counts[1]++;
                }
            });
        }
        return new ArchiveOutput(files.size(), bytes, counts[0], counts[1], counts[2]);
    }

    Map<String, Object> figures() {
        return Map.of("output_files", files, "output_bytes", bytes, "output_rows", distinct, "duplicates", duplicates);
    }
}
