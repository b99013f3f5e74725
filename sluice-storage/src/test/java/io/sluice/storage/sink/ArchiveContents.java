package io.sluice.storage.sink;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.storage.backend.StorageBackend;
import io.sluice.storage.backend.TestStorage;
import io.sluice.storage.format.ArchivedFormats;
import io.sluice.storage.format.ArchivedRows;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What an archive shows a reader, read back through its backend: every visible file downloaded and its rows' Kafka
 * coordinates read with {@link ArchivedFormats}; and what a finished archive must not hold: staged files, incomplete
 * uploads, visible files of no known format. For tests (the audit does this for users).
 */
public final class ArchiveContents {

    private static final String INTERNAL = "_sluice/";

    /** topic → partition → offset → how many visible rows hold it. */
    private final Map<String, Map<Integer, Map<Long, Integer>>> rows = new TreeMap<>();
    private final List<String> staged;
    private final List<String> uploads;
    private final List<String> strangers = new ArrayList<>();

    private ArchiveContents(List<String> staged, List<String> uploads) {
        this.staged = staged;
        this.uploads = uploads;
    }

    public static ArchiveContents read(TestStorage storage) throws IOException {
        Path scratch = Files.createTempDirectory("archive-contents");
        try (StorageBackend backend = storage.open()) {
            ArchiveContents contents = new ArchiveContents(backend.list(INTERNAL + "staging/"),
                    storage.incompleteUploads());
            for (String path : backend.list("")) {
                if (path.startsWith(INTERNAL)) {
                    continue;
                }
                ArchivedRows reader = ArchivedFormats.rowsOf(path).orElse(null);
                if (reader == null) {
                    contents.strangers.add(path);
                    continue;
                }
                Path local = scratch.resolve("file");
                backend.download(path, local);
                reader.read(local, (topic, partition, offset) -> contents.rows.computeIfAbsent(topic, t -> new TreeMap<>())
                        .computeIfAbsent(partition, p -> new TreeMap<>()).merge(offset, 1, Integer::sum));
                Files.delete(local);
            }
            return contents;
        } finally {
            Files.deleteIfExists(scratch);
        }
    }

    /** How many distinct offsets of {@code topic} are visible. */
    public long offsets(String topic) {
        return rows.getOrDefault(topic, Map.of()).values().stream().mapToLong(Map::size).sum();
    }

    /** Staged files and incomplete uploads: invisible, but nothing a finished archive should hold. */
    public int staged() {
        return staged.size() + uploads.size();
    }

    /**
     * Each offset below each partition's end is in exactly one visible row, nothing else is visible, nothing is left
     * staged and no upload is left incomplete. The message lists the first few problems of each kind.
     */
    public void assertExactlyOnce(String topic, Map<Integer, Long> endOffsets) {
        check(topic, endOffsets, true);
    }

    /** As {@link #assertExactlyOnce}, but staged files and incomplete uploads (invisible) are not checked. */
    public void assertVisibleExactlyOnce(String topic, Map<Integer, Long> endOffsets) {
        check(topic, endOffsets, false);
    }

    private void check(String topic, Map<Integer, Long> endOffsets, boolean nothingStaged) {
        List<String> missing = new ArrayList<>();
        List<String> twice = new ArrayList<>();
        List<String> unexpected = new ArrayList<>();
        Map<Integer, Map<Long, Integer>> seen = rows.getOrDefault(topic, Map.of());
        endOffsets.forEach((partition, end) -> {
            Map<Long, Integer> counts = seen.getOrDefault(partition, Map.of());
            for (long offset = 0; offset < end; offset++) {
                int n = counts.getOrDefault(offset, 0);
                if (n == 0) {
                    missing.add(partition + "@" + offset);
                } else if (n > 1) {
                    twice.add(partition + "@" + offset + " ×" + n);
                }
            }
        });
        rows.forEach((t, partitions) -> partitions.forEach((partition, counts) -> counts.keySet().forEach(offset -> {
            if (!t.equals(topic) || offset >= endOffsets.getOrDefault(partition, 0L)) {
                unexpected.add(t + "-" + partition + "@" + offset);
            }
        })));
        String problems = section("missing", missing) + section("visible more than once", twice)
                + section("not produced", unexpected) + section("of no known format", strangers)
                + (nothingStaged ? section("left staged", staged) + section("incomplete uploads", uploads) : "");
        assertTrue(problems.isEmpty(), "the archive of " + topic + " is not exactly once:" + problems);
    }

    private static String section(String what, List<String> items) {
        return items.isEmpty() ? "" : "\n  " + items.size() + " " + what + ": "
                + items.subList(0, Math.min(10, items.size())) + (items.size() > 10 ? " ..." : "");
    }
}
