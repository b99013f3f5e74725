package io.sluice.cli.pipeline;

import io.sluice.storage.codec.Codec;
import io.sluice.storage.format.FileFormat;
import io.sluice.storage.format.JsonLinesFormat;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The file formats a pipeline may name, with their codecs. A format whose writer is not in this build yet is listed
 * as pending: pipelines that name it validate, and {@code run} refuses them with the reason. Adding a writer is one
 * line: replace its {@code pending(...)} with {@code available(..., options -> new TheFormat(...))}.
 *
 * <p>Immutable.
 */
public final class FileFormats {

    /** What a pipeline says about its files, for building a format. */
    public record Options(String codec, boolean kafkaKey, boolean kafkaHeaders, Path schema) {
    }

    @FunctionalInterface
    public interface Factory {
        FileFormat create(Options options) throws IOException;
    }

    /**
     * @param factory null while the writer is pending
     * @param pending why it is not available yet, or null
     */
    public record Entry(String name, List<String> codecs, String defaultCodec, boolean needsSchema, Factory factory,
            String pending) {

        public boolean available() {
            return factory != null;
        }
    }

    /** The stream codecs of line- and length-delimited files (JSON Lines, raw bytes). */
    private static final List<String> STREAM_CODECS =
            Arrays.stream(Codec.values()).map(c -> c.name().toLowerCase(Locale.ROOT)).toList();

    private static final List<Entry> ENTRIES = List.of(
            available("jsonl", STREAM_CODECS, "zstd", false,
                    o -> new JsonLinesFormat(Codec.parse(o.codec()), o.kafkaKey(), o.kafkaHeaders())),
            pending("parquet", List.of("none", "snappy", "gzip", "zstd", "lz4_raw"), "zstd", true,
                    "the Parquet writer is being added to sluice-storage"),
            pending("avro", List.of("null", "deflate", "snappy", "zstandard", "bzip2", "xz"), "zstandard", true,
                    "the Avro container writer is being added to sluice-storage"),
            pending("raw", STREAM_CODECS, "zstd", false, "the raw-bytes writer is being added to sluice-storage"));

    private FileFormats() {
    }

    private static Entry available(String name, List<String> codecs, String defaultCodec, boolean needsSchema,
            Factory factory) {
        return new Entry(name, List.copyOf(codecs), defaultCodec, needsSchema, factory, null);
    }

    private static Entry pending(String name, List<String> codecs, String defaultCodec, boolean needsSchema,
            String reason) {
        return new Entry(name, List.copyOf(codecs), defaultCodec, needsSchema, null, reason);
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
