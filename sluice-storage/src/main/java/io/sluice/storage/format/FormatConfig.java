package io.sluice.storage.format;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.sluice.storage.avro.AvroEncoding;
import io.sluice.storage.codec.Codec;
import io.sluice.storage.json.JsonEncoding;
import io.sluice.storage.json.JsonErrors;
import io.sluice.storage.value.ValueEncoding;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.SchemaParseException;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * A file format chosen by names, as the CLI and pipelines give it: the format ({@code jsonl}, {@code parquet},
 * {@code avro}, {@code raw}), its codec, the options that format takes, and how the values it is given are encoded.
 * Everything is checked when it is built, and a mistake says what to write instead; an option a format does not take
 * is an error, not ignored.
 *
 * <p>Value encodings: {@code json} (the default), {@code avro} (plain Avro binary) and {@code avro-confluent} (the
 * Confluent wire format: magic byte 0, a 4-byte schema id, Avro binary). Avro values need the valueSchema they were
 * written with, which then is also the schema of Parquet and Avro rows (the decoded records are written as they
 * are); the schema id of the Confluent format is not looked up. JSON Lines takes JSON values only; raw files keep any
 * value's bytes, and take a valueSchema only to read Avro values' fields for the layout.
 *
 * <table>
 *   <caption>Formats, codecs (the first is the default) and options</caption>
 *   <tr><th>format</th><th>codecs</th><th>options</th></tr>
 *   <tr><td>jsonl</td><td>zstd, none, gzip, lz4, snappy</td><td>keys, headers (JSON values only)</td></tr>
 *   <tr><td>parquet</td><td>zstd, none, snappy, gzip, lz4_raw</td>
 *       <td>valueSchema (required), valueEncoding, keys, headers, rowGroupBytes, pageBytes,
 *       dictionaryPageBytes</td></tr>
 *   <tr><td>avro</td><td>zstandard, null, deflate, snappy, bzip2, xz</td>
 *       <td>valueSchema (required), valueEncoding, keys, headers</td></tr>
 *   <tr><td>raw</td><td>zstd, none, gzip, lz4, snappy</td>
 *       <td>delimiter (newline or length; newline by default), valueEncoding with valueSchema</td></tr>
 * </table>
 *
 * <p>Immutable and thread-safe.
 */
public final class FormatConfig {

    /** Parquet's row group held in memory per open file: modest, since a partition may have many files open. */
    public static final long DEFAULT_ROW_GROUP_BYTES = 16L << 20;
    /**
     * Parquet's page: small, since each open file holds a page-sized compressor buffer from its first row (Parquet's
     * own default of 1 MiB made a thousand small open files hold 1.1 GB); 64 KiB pages compress within a few percent
     * of 1 MiB ones.
     */
    public static final int DEFAULT_PAGE_BYTES = 64 << 10;
    /**
     * Parquet's limit on a column's dictionary: a dictionary lives on the heap until its row group ends, at 4.5 to 8
     * times this size (docs/formats.md), so with many open files a large one costs more than it saves.
     */
    public static final int DEFAULT_DICTIONARY_PAGE_BYTES = 16 << 10;
    static final long MIN_ROW_GROUP_BYTES = 64L << 10;
    static final long MAX_ROW_GROUP_BYTES = 1L << 30;
    static final int MIN_PAGE_BYTES = 1 << 10;

    private static final Map<String, Codec> STREAM_CODECS = names("none", Codec.NONE, "gzip", Codec.GZIP,
            "zstd", Codec.ZSTD, "lz4", Codec.LZ4, "snappy", Codec.SNAPPY);
    private static final Map<String, CompressionCodecName> PARQUET_CODECS = names("none",
            CompressionCodecName.UNCOMPRESSED, "snappy", CompressionCodecName.SNAPPY, "gzip", CompressionCodecName.GZIP,
            "zstd", CompressionCodecName.ZSTD, "lz4_raw", CompressionCodecName.LZ4_RAW);
    private static final Map<String, String> AVRO_CODECS = names("null", "null", "deflate", "deflate",
            "snappy", "snappy", "zstandard", "zstandard", "bzip2", "bzip2", "xz", "xz");
    /** The value encodings, by name; whether each is Avro in the Confluent wire format. */
    private static final Map<String, Boolean> AVRO_ENCODINGS = names("avro", false, "avro-confluent", true);
    private static final String ENCODINGS = "json, avro, avro-confluent";
    private static final Map<String, RawFormat.Delimiter> DELIMITERS = names("newline", RawFormat.Delimiter.NEWLINE,
            "length", RawFormat.Delimiter.LENGTH);

    private final String format;
    private final String codec;
    private final ValueEncoding values;
    private final FileFormat fileFormat;
    private final boolean keys;
    private final boolean headers;
    /** How raw files separate values; null for the other formats. */
    private final String delimiter;
    /** Parquet's row group; 0 for the other formats. */
    private final long rowGroupBytes;

    private FormatConfig(Builder b) {
        if (b.format == null) {
            throw new IllegalArgumentException("no format given; expected one of jsonl, parquet, avro, raw");
        }
        this.format = b.format.trim().toLowerCase(Locale.ROOT);
        this.values = values(b);
        this.keys = b.keys;
        this.headers = b.headers;
        this.delimiter = format.equals("raw") ? orDefault(b.delimiter, "newline") : null;
        this.rowGroupBytes = !format.equals("parquet") ? 0
                : b.rowGroupBytes == null ? DEFAULT_ROW_GROUP_BYTES : b.rowGroupBytes;
        boolean json = values == JsonEncoding.INSTANCE;
        switch (format) {
            case "jsonl" -> {
                if (!json) {
                    throw new IllegalArgumentException("the jsonl format writes JSON values as they are, and the "
                            + "values are " + values.name() + "; write parquet or avro files (the decoded records, "
                            + "with the valueSchema as their columns), or raw files to keep the bytes");
                }
                refuse(b.valueSchema != null, "valueSchema", "parquet and avro");
                refuse(b.delimiter != null, "delimiter", "raw");
                refuseRowGroups(b);
                this.codec = orDefault(b.codec, "zstd");
                this.fileFormat = new JsonLinesFormat(pick(STREAM_CODECS, codec, "codec"), b.keys, b.headers);
            }
            case "raw" -> {
                refuse(json && b.valueSchema != null, "valueSchema", "parquet and avro, and for Avro values");
                refuse(b.keys || b.headers, "keys and headers", "jsonl, parquet and avro (raw stores the value bytes "
                        + "only)");
                refuseRowGroups(b);
                this.codec = orDefault(b.codec, "zstd");
                this.fileFormat = new RawFormat(pick(DELIMITERS, delimiter, "delimiter"),
                        pick(STREAM_CODECS, codec, "codec"), values);
            }
            case "parquet" -> {
                refuse(b.delimiter != null, "delimiter", "raw");
                this.codec = orDefault(b.codec, "zstd");
                CompressionCodecName parquetCodec = pick(PARQUET_CODECS, codec, "codec");
                long rowGroup = rowGroupBytes;
                int page = b.pageBytes == null ? DEFAULT_PAGE_BYTES : b.pageBytes; // the default fits any row group
                int dictionary = b.dictionaryPageBytes == null ? DEFAULT_DICTIONARY_PAGE_BYTES : b.dictionaryPageBytes;
                if (rowGroup < MIN_ROW_GROUP_BYTES || rowGroup > MAX_ROW_GROUP_BYTES) {
                    throw new IllegalArgumentException("rowGroupBytes for parquet must be between " + MIN_ROW_GROUP_BYTES
                            + " (64 KiB) and " + MAX_ROW_GROUP_BYTES + " (1 GiB), not " + rowGroup + "; the default is "
                            + DEFAULT_ROW_GROUP_BYTES + " (16 MiB)");
                }
                checkPage("pageBytes", page, rowGroup, DEFAULT_PAGE_BYTES + " (64 KiB); each open file holds a "
                        + "page-sized buffer, so large pages cost heap with many open files");
                checkPage("dictionaryPageBytes", dictionary, rowGroup, DEFAULT_DICTIONARY_PAGE_BYTES + " (16 KiB); "
                        + "each column's dictionary stays on the heap, at up to 8 times this size, until its row "
                        + "group is written");
                this.fileFormat = new ParquetFormat(rows(b), parquetCodec, rowGroup, page, dictionary);
            }
            case "avro" -> {
                refuse(b.delimiter != null, "delimiter", "raw");
                refuseRowGroups(b);
                this.codec = orDefault(b.codec, "zstandard");
                this.fileFormat = new AvroFormat(rows(b), pick(AVRO_CODECS, codec, "codec"));
            }
            default -> throw new IllegalArgumentException("unknown format '" + b.format + "'; expected one of jsonl, "
                    + "parquet, avro, raw");
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The format, ready to open files with. */
    public FileFormat fileFormat() {
        return fileFormat;
    }

    /** The format's name, lower case: jsonl, parquet, avro or raw. */
    public String format() {
        return format;
    }

    /** The codec's name as the format spells it (zstd, lz4_raw, zstandard...). */
    public String codec() {
        return codec;
    }

    /** Whether rows store the record key ({@code kafka_key}). */
    public boolean keys() {
        return keys;
    }

    /** Whether rows store the record headers ({@code kafka_headers}). */
    public boolean headers() {
        return headers;
    }

    /** How raw files separate values: newline or length; null for the other formats. */
    public String delimiter() {
        return delimiter;
    }

    /** Parquet's row group size held in memory per open file; 0 for the other formats. */
    public long rowGroupBytes() {
        return rowGroupBytes;
    }

    /** The values' encoding: json, avro or avro-confluent. */
    public String valueEncoding() {
        return values.name();
    }

    @Override
    public String toString() {
        return format + " (" + codec + ", files " + fileFormat.extension()
                + (values == JsonEncoding.INSTANCE ? "" : ", " + values.name() + " values") + ")";
    }

    private static ValueEncoding values(Builder b) {
        String name = orDefault(b.valueEncoding, "json");
        if (name.equals("json")) {
            return JsonEncoding.INSTANCE;
        }
        Boolean confluent = AVRO_ENCODINGS.get(name);
        if (confluent == null) {
            throw new IllegalArgumentException("unknown valueEncoding '" + b.valueEncoding + "'; expected one of "
                    + ENCODINGS);
        }
        if (b.valueSchema == null) {
            throw new IllegalArgumentException("the valueEncoding " + name + " needs a valueSchema: the Avro schema "
                    + "(JSON) the values were written with, a record");
        }
        Schema schema = schema(b);
        return confluent ? AvroEncoding.confluent(schema) : AvroEncoding.plain(schema);
    }

    private RowSchema rows(Builder b) {
        if (b.valueSchema == null) {
            throw new IllegalArgumentException(format + " needs a valueSchema: the Avro schema (JSON) of the records' "
                    + "values, a record whose fields become the columns next to the Kafka coordinates");
        }
        Schema schema = values instanceof AvroEncoding avro ? avro.schema() : schema(b);
        return new RowSchema(schema, values, b.keys, b.headers);
    }

    private static Schema schema(Builder b) {
        try {
            return new Schema.Parser().parse(b.valueSchema);
        } catch (SchemaParseException e) {
            // Avro wraps the JSON parser's error with its class name in the message: say what Jackson said, and where
            String why = e.getCause() instanceof JsonProcessingException json ? "it is not JSON: "
                    + JsonErrors.describe(json) : e.getMessage();
            throw new IllegalArgumentException("the values' schema is not a valid Avro schema: " + why, e);
        }
    }

    private void refuse(boolean given, String option, String formats) {
        if (given) {
            throw new IllegalArgumentException("the " + format + " format takes no " + option + "; that option is for "
                    + formats);
        }
    }

    private void refuseRowGroups(Builder b) {
        refuse(b.rowGroupBytes != null || b.pageBytes != null || b.dictionaryPageBytes != null,
                "rowGroupBytes, pageBytes or dictionaryPageBytes", "parquet");
    }

    private static void checkPage(String option, int bytes, long rowGroup, String defaultAndWhy) {
        if (bytes < MIN_PAGE_BYTES || bytes > rowGroup) {
            throw new IllegalArgumentException(option + " for parquet must be between " + MIN_PAGE_BYTES
                    + " (1 KiB) and rowGroupBytes (" + rowGroup + "), not " + bytes + "; the default is "
                    + defaultAndWhy);
        }
    }

    private static String orDefault(String given, String fallback) {
        return given == null ? fallback : given.trim().toLowerCase(Locale.ROOT);
    }

    private <T> T pick(Map<String, T> known, String name, String what) {
        T value = known.get(name);
        if (value == null) {
            throw new IllegalArgumentException("unknown " + what + " '" + name + "' for " + format + "; expected one of "
                    + String.join(", ", known.keySet()));
        }
        return value;
    }

    @SuppressWarnings("unchecked")
    private static <T> Map<String, T> names(Object... pairs) {
        Map<String, T> map = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            map.put((String) pairs[i], (T) pairs[i + 1]);
        }
        return map;
    }

    /** Collects the names and options; {@link #build()} checks them together. Not thread-safe. */
    public static final class Builder {
        private String format;
        private String codec;
        private String valueSchema;
        private boolean keys;
        private boolean headers;
        private String delimiter;
        private String valueEncoding;
        private Long rowGroupBytes;
        private Integer pageBytes;
        private Integer dictionaryPageBytes;

        private Builder() {
        }

        /** jsonl, parquet, avro or raw (any case). */
        public Builder format(String format) {
            this.format = format;
            return this;
        }

        /** The codec's name as the format spells it; each format has a default (see the class comment). */
        public Builder codec(String codec) {
            this.codec = codec;
            return this;
        }

        /** The Avro schema (JSON text) of the values: a record. Required for parquet and avro. */
        public Builder valueSchema(String avroSchemaJson) {
            this.valueSchema = avroSchemaJson;
            return this;
        }

        /**
         * How the values are encoded: {@code json} (the default), {@code avro} (plain Avro binary of the valueSchema)
         * or {@code avro-confluent} (the Confluent wire format: magic byte 0, a 4-byte schema id that is not looked
         * up, then Avro binary of the valueSchema).
         */
        public Builder valueEncoding(String valueEncoding) {
            this.valueEncoding = valueEncoding;
            return this;
        }

        /** Store the record key in {@code kafka_key} (as Kafka Connect's {@code store.kafka.keys}). */
        public Builder keys(boolean keys) {
            this.keys = keys;
            return this;
        }

        /** Store the headers in {@code kafka_headers} (as Kafka Connect's {@code store.kafka.headers}). */
        public Builder headers(boolean headers) {
            this.headers = headers;
            return this;
        }

        /** For raw: {@code newline} (the default) or {@code length} (a 4-byte big-endian length before each value). */
        public Builder delimiter(String delimiter) {
            this.delimiter = delimiter == null ? null : delimiter.trim().toLowerCase(Locale.ROOT);
            return this;
        }

        /** For parquet: the row group size held in memory before it is written out. */
        public Builder rowGroupBytes(long rowGroupBytes) {
            this.rowGroupBytes = rowGroupBytes;
            return this;
        }

        /** For parquet: the page size, the unit of encoding and compression within a row group. */
        public Builder pageBytes(int pageBytes) {
            this.pageBytes = pageBytes;
            return this;
        }

        /**
         * For parquet: the most a column's dictionary may hold (encoded) before the column falls back to plain
         * encoding for the rest of its row group.
         */
        public Builder dictionaryPageBytes(int dictionaryPageBytes) {
            this.dictionaryPageBytes = dictionaryPageBytes;
            return this;
        }

        /** @throws IllegalArgumentException saying what is wrong and what would be right */
        public FormatConfig build() {
            return new FormatConfig(this);
        }
    }
}
