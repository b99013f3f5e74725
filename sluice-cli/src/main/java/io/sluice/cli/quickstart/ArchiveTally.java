package io.sluice.cli.quickstart;

import io.sluice.storage.format.ArchivedFormats;
import io.sluice.storage.format.ArchivedRows;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * What a local archive holds: its visible files, their bytes and folders, and the Kafka coordinates of their rows,
 * read back from the files themselves, so the quick start can say that every offset landed exactly once.
 *
 * <p>Immutable once computed.
 *
 * @param duplicates rows whose offset was already seen in another row
 * @param missing    offsets below the expected end offsets that no row holds
 * @param unreadable files whose rows could not be read (a format without coordinates, or damage)
 */
public record ArchiveTally(long files, long folders, long bytes, long rows, long duplicates, long missing,
        long unreadable) {

    /** Tallies the files of {@code topic} under {@code root} against the partitions' expected end offsets. */
    public static ArchiveTally of(Path root, String topic, Map<Integer, Long> endOffsets) throws IOException {
        List<Path> files;
        try (Stream<Path> walk = Files.walk(root.resolve(topic))) {
            files = walk.filter(Files::isRegularFile).sorted().toList();
        }
        Map<Integer, BitSet> seen = new HashMap<>();
        long[] rows = {0, 0};
        long bytes = 0;
        long unreadable = 0;
        for (Path file : files) {
            bytes += Files.size(file);
            Optional<ArchivedRows> reader = ArchivedFormats.rowsOf(file.getFileName().toString());
            if (reader.isEmpty()) {
                unreadable++;
                continue;
            }
            try {
                reader.get().read(file, (t, partition, offset) -> {
                    rows[0]++;
                    BitSet offsets = seen.computeIfAbsent(partition, p -> new BitSet());
                    if (offsets.get((int) offset)) {
                        rows[1]++;
                    }
                    offsets.set((int) offset);
                });
            } catch (IOException e) {
                unreadable++;
            }
        }
        long missing = 0;
        for (Map.Entry<Integer, Long> end : endOffsets.entrySet()) {
            BitSet offsets = seen.getOrDefault(end.getKey(), new BitSet());
            missing += end.getValue() - offsets.get(0, (int) (long) end.getValue()).cardinality();
        }
        long folders = files.stream().map(Path::getParent).distinct().count();
        return new ArchiveTally(files.size(), folders, bytes, rows[0], rows[1], missing, unreadable);
    }

    /** Every expected offset in exactly one row, every file readable. */
    public boolean exact() {
        return duplicates == 0 && missing == 0 && unreadable == 0;
    }
}
