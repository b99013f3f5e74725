package io.sluice.bench.systems;

import io.sluice.storage.format.ArchivedFormats;
import io.sluice.storage.format.ArchivedRows;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
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
 * @param sizes      each file's bytes, smallest first
 * @param oneRowFiles files holding a single row
 */
record ArchiveOutput(long files, long bytes, long rows, long distinct, long duplicates, long[] sizes,
        long oneRowFiles) {

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
        long[] sizes = new long[files.size()];
        long oneRowFiles = 0;
        for (int i = 0; i < files.size(); i++) {
            Path file = files.get(i);
            long rowsBefore = counts[0];
            ArchivedRows rows = ArchivedFormats.rowsOf(file.getFileName().toString()).orElseThrow(() ->
                    new IOException(file + " is not a data file the archive writes (or its format cannot be read back "
                            + "yet: teach io.sluice.storage.format.ArchivedFormats its name)"));
            sizes[i] = Files.size(file);
            bytes += sizes[i];
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
            if (counts[0] - rowsBefore == 1) {
                oneRowFiles++;
            }
        }
        Arrays.sort(sizes);
        return new ArchiveOutput(files.size(), bytes, counts[0], counts[1], counts[2], sizes, oneRowFiles);
    }

    /**
     * The counts, and how the bytes fall into files: the median file, and the median weighted by bytes (the size of
     * the file that holds the middle byte: half of all bytes are in files at least that large), which a few large
     * files make large however many small ones there are, as a reader scanning everything sees it.
     */
    Map<String, Object> figures() {
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("output_files", files);
        f.put("output_bytes", bytes);
        f.put("output_rows", distinct);
        f.put("duplicates", duplicates);
        f.put("one_row_files", oneRowFiles);
        f.put("median_file_bytes", sizes.length == 0 ? 0 : sizes[(sizes.length - 1) / 2]);
        f.put("byte_weighted_median_file_bytes", byteWeightedMedian());
        return f;
    }

    private long byteWeightedMedian() {
        long seen = 0;
        for (long size : sizes) {
            seen += size;
            if (seen * 2 >= bytes) {
                return size;
            }
        }
        return 0;
    }
}
