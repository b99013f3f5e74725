package io.sluice.audit;

import io.sluice.storage.format.ArchivedFormats;
import java.util.Optional;

/**
 * The name the archive sink gives its data files, {@code <topic>+<partition>+<first offset><extension>}, such as
 * {@code events+3+1200.jsonl.zst}. Kafka topic names cannot contain {@code +}, so the name splits unambiguously.
 * The audit uses it to skip other topics' files without reading them and to recognize files of formats it cannot read
 * row by row; what a file holds is always taken from its rows when they can be read.
 *
 * <p>Threading: immutable.
 */
record SluiceFileName(String topic, int partition, long firstOffset) {

    static Optional<SluiceFileName> parse(String fileName) {
        String[] parts = fileName.split("\\+", -1);
        if (parts.length != 3 || parts[0].isEmpty()) {
            return Optional.empty();
        }
        int digits = 0;
        while (digits < parts[2].length() && Character.isDigit(parts[2].charAt(digits))) {
            digits++;
        }
        try {
            return Optional.of(new SluiceFileName(parts[0], Integer.parseInt(parts[1]),
                    Long.parseLong(parts[2].substring(0, digits))));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /**
     * The name as the archive sink writes it, nothing more: {@code <topic>+<partition>+<first offset>} followed directly
     * by the extension of a Sluice format. A copy such as {@code t+0+400-copy.jsonl.zst} parses, but is not one.
     */
    static Optional<SluiceFileName> parseSinkName(String fileName) {
        return parse(fileName).filter(name -> {
            String rest = fileName.substring(fileName.lastIndexOf('+') + 1 + Long.toString(name.firstOffset()).length());
            // the extension and nothing else: ".jsonl.zst", ".zstd.parquet", ".avro", not ".jsonl.zst.bak.jsonl.zst"
            return rest.matches("\\.[a-z0-9_]+(\\.[a-z0-9_]+)?") && ArchivedFormats.isDataFile(fileName);
        });
    }

    /** The last segment of a {@code /}-separated path. */
    static String fileNameOf(String path) {
        return path.substring(path.lastIndexOf('/') + 1);
    }
}
