package io.sluice.cli.pipeline;

import io.sluice.storage.codec.Codec;
import io.sluice.storage.format.FormatConfig;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The file formats a pipeline may name, with their codecs, for validation, "did you mean" and the reference. The
 * writers themselves are sluice-storage's, built through {@link FormatConfig}; {@code FileFormatsTest} checks that
 * every codec listed here is one {@link FormatConfig} takes, and that the defaults agree.
 *
 * <p>Immutable.
 */
public final class FileFormats {

    /**
     * @param needsSchema whether the rows follow an Avro schema of the values ({@code sink.schema})
     * @param coordinates whether the rows carry their Kafka coordinates (and so may carry keys and headers)
     * @param avroValues  whether the format takes Avro values ({@code sink.value-encoding}), not only JSON
     */
    public record Entry(String name, List<String> codecs, String defaultCodec, boolean needsSchema,
            boolean coordinates, boolean avroValues) {
    }

    /** The stream codecs of line- and length-delimited files (JSON Lines, raw bytes). */
    private static final List<String> STREAM_CODECS =
            Arrays.stream(Codec.values()).map(c -> c.name().toLowerCase(Locale.ROOT)).toList();

    public static final Entry JSONL = new Entry("jsonl", STREAM_CODECS, "zstd", false, true, false);
    public static final Entry PARQUET = new Entry("parquet", List.of("none", "snappy", "gzip", "zstd", "lz4_raw"),
            "zstd", true, true, true);
    public static final Entry AVRO = new Entry("avro", List.of("null", "deflate", "snappy", "zstandard", "bzip2", "xz"),
            "zstandard", true, true, true);
    public static final Entry RAW = new Entry("raw", STREAM_CODECS, "zstd", false, false, true);

    private static final List<Entry> ENTRIES = List.of(JSONL, PARQUET, AVRO, RAW);

    /** How the values are encoded ({@code sink.value-encoding}): the first is the default. */
    public static final List<String> VALUE_ENCODINGS = List.of("json", "avro", "avro-confluent");

    /** How raw files separate values. */
    public static final List<String> RAW_DELIMITERS = List.of("newline", "length");

    private FileFormats() {
    }

    public static List<Entry> all() {
        return ENTRIES;
    }

    public static List<String> names() {
        return ENTRIES.stream().map(Entry::name).toList();
    }

    public static Optional<Entry> find(String name) {
        return ENTRIES.stream().filter(e -> e.name().equals(name)).findFirst();
    }
}
