package io.sluice.storage.format;

import io.sluice.storage.codec.Codec;
import java.util.Optional;

/**
 * Recognizes an archived file's format by its name, for readers that do not know the pipeline that wrote it (the
 * audit). Formats that do not store Kafka coordinates (raw bytes) have no {@link ArchivedRows}.
 */
public final class ArchivedFormats {

    private static final ArchivedRows PARQUET = new ParquetRows();
    private static final ArchivedRows AVRO = new AvroRows();

    private ArchivedFormats() {
    }

    /**
     * The reader for a file name such as {@code part-00001.jsonl.zst}, {@code ….zstd.parquet} or {@code ….avro}, or
     * empty when the format stores no coordinates (raw) or the name is not one Sluice writes.
     */
    public static Optional<ArchivedRows> rowsOf(String fileName) {
        if (fileName.endsWith(".parquet")) {
            return Optional.of(PARQUET); // the codec is inside the file
        }
        if (fileName.endsWith(".avro")) {
            return Optional.of(AVRO);
        }
        for (Codec codec : Codec.values()) {
            if (fileName.endsWith(".jsonl" + codec.extension())) {
                return Optional.of(new JsonLinesRows(codec));
            }
        }
        return Optional.empty();
    }

    /** Whether the name is one Sluice writes data files under (so the audit can flag strangers), raw files included. */
    public static boolean isDataFile(String fileName) {
        return rowsOf(fileName).isPresent() || RawFormat.isRawFile(fileName);
    }
}
