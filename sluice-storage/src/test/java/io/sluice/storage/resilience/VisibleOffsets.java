package io.sluice.storage.resilience;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.storage.backend.StorageBackend;
import io.sluice.storage.format.ArchivedFormats;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Pattern;

/**
 * Which Kafka offsets an archive made visible, read back from the rows of its visible files through the backend (so
 * local and S3 alike). For tests; the audit is the full-blown version.
 */
final class VisibleOffsets {

    private VisibleOffsets() {
    }

    /**
     * What s3proxy's file system store leaves when killed mid-write: it writes {@code <key>-<uuid>} and renames it
     * into place, and lists the leftover as an object (S3 itself never shows a partial object). No Sluice file name
     * ends this way.
     */
    private static final Pattern S3PROXY_TEMP = Pattern.compile(".*-\\p{XDigit}{8}(-\\p{XDigit}{4}){3}-\\p{XDigit}{12}");

    /** Visible data files: everything outside {@code _sluice/}, but for s3proxy's leftovers. */
    static List<String> files(StorageBackend backend) throws IOException {
        return backend.list("").stream().filter(p -> !p.startsWith("_sluice/"))
                .filter(p -> !S3PROXY_TEMP.matcher(p).matches()).sorted().toList();
    }

    /** "partition@offset" → how many visible rows hold it. Reads four files at a time. */
    static Map<String, Integer> read(StorageBackend backend) throws IOException {
        Map<String, Integer> counts = new ConcurrentHashMap<>();
        ExecutorService readers = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> reads = new ArrayList<>();
            for (String path : files(backend)) {
                reads.add(readers.submit(() -> {
                    Path scratch = Files.createTempFile("sluice-visible", ".data");
                    try {
                        backend.download(path, scratch);
                        ArchivedFormats.rowsOf(path).orElseThrow(() -> new AssertionError(path + " is not data"))
                                .read(scratch, (topic, partition, offset) -> counts.merge(partition + "@" + offset,
                                        1, Integer::sum));
                    } finally {
                        Files.deleteIfExists(scratch);
                    }
                    return null;
                }));
            }
            for (Future<?> read : reads) {
                read.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        } catch (ExecutionException e) {
            throw new IOException(e.getCause());
        } finally {
            readers.shutdownNow();
        }
        return counts;
    }

    /** Every offset below {@code ends.get(partition)} is visible exactly once, and nothing else is. */
    static void assertExactlyOnce(Map<String, Integer> visible, Map<Integer, Long> ends) {
        List<String> twice = visible.entrySet().stream().filter(e -> e.getValue() > 1).map(Map.Entry::getKey)
                .sorted().limit(10).toList();
        assertTrue(twice.isEmpty(), "offsets visible more than once: " + twice);
        ends.forEach((partition, end) -> {
            List<Long> missing = new java.util.ArrayList<>();
            for (long offset = 0; offset < end && missing.size() < 10; offset++) {
                if (!visible.containsKey(partition + "@" + offset)) {
                    missing.add(offset);
                }
            }
            assertTrue(missing.isEmpty(), "partition " + partition + " misses offsets " + missing);
        });
        assertEquals(ends.values().stream().mapToLong(Long::longValue).sum(), visible.size(),
                "no offsets beyond the topic's");
    }
}
