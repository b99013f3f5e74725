package io.sluice.storage.format;

import io.sluice.storage.codec.Codec;
import java.util.Optional;

/**
 * Recognizes an archived file's format by its name, for readers that do not know the pipeline that wrote it (the
 * audit). Formats that do not store Kafka coordinates (raw bytes) have no {@link ArchivedRows}.
 */
public final class ArchivedFormats {

    private ArchivedFormats() {
    }

    /** The reader for a file name such as {@code part-00001.jsonl.zst}, or empty when the format stores no coordinates. */
    public static Optional<ArchivedRows> rowsOf(String fileName) {
        for (Codec codec : Codec.values()) {
            if (fileName.endsWith(".jsonl" + codec.extension())) {
                return Optional.of(new JsonLinesRows(codec));
            }
        }
        return Optional.empty();
    }

    /** Whether the name is one Sluice writes data files under (so the audit can flag strangers). */
    public static boolean isDataFile(String fileName) {
        return rowsOf(fileName).isPresent();
    }
}
