package io.sluice.cli.pipeline;

import io.sluice.cli.config.Problems;
import io.sluice.cli.config.Settings;
import io.sluice.cli.config.Suggestions;
import io.sluice.storage.format.FormatConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * How a pipeline writes its files: the format and codec, the Avro schema of the values and their encoding, the Kafka
 * key and headers, Parquet's row group size and raw files' delimiter, checked key by key and then built into
 * sluice-storage's
 * {@link FormatConfig}, so that validating a pipeline already parses its schema.
 *
 * <p>Immutable; validated when read.
 */
public final class FileSettings {

    /** Parquet's own bound; {@link FormatConfig} refuses more. */
    private static final long MAX_ROW_GROUP_BYTES = 1L << 30;

    private final FileFormats.Entry format;
    private final FormatConfig config;

    private FileSettings(FileFormats.Entry format, FormatConfig config) {
        this.format = format;
        this.config = config;
    }

    /** The files' settings in {@code s}, or null with every mistake among them added to {@code problems}. */
    static FileSettings from(Settings s, Path base, Problems problems) {
        return InvalidSetting.collect(s, problems, () -> checked(s, base, problems));
    }

    private static FileSettings checked(Settings s, Path base, Problems problems) {
        FileFormats.Entry format = FileFormats.find(s.get(PipelineKeys.FORMAT)).orElseThrow();
        InvalidSetting.onlyIf(format == FileFormats.PARQUET, s, List.of(PipelineKeys.ROW_GROUP_SIZE),
                "applies to the parquet format only, and sink.format is " + format.name());
        InvalidSetting.onlyIf(format == FileFormats.RAW, s, List.of(PipelineKeys.RAW_DELIMITER),
                "applies to the raw format only, and sink.format is " + format.name());
        String codec = s.find(PipelineKeys.CODEC).map(String::trim).orElse(format.defaultCodec());
        Path schema = s.find(PipelineKeys.SCHEMA).map(f -> base.resolve(f).toAbsolutePath().normalize()).orElse(null);
        boolean key = s.get(PipelineKeys.KAFKA_KEY);
        boolean headers = s.get(PipelineKeys.KAFKA_HEADERS);
        long rowGroup = s.get(PipelineKeys.ROW_GROUP_SIZE);
        String delimiter = s.get(PipelineKeys.RAW_DELIMITER);
        String encoding = s.get(PipelineKeys.VALUE_ENCODING);
        // non-short-circuit: each check reports its own mistake, so that one pass shows them all
        boolean encodingFits = checkEncoding(s, problems, format, encoding, schema);
        if (!(check(s, problems, format, codec, schema, key, headers, rowGroup) && encodingFits)) {
            return null;
        }
        FormatConfig.Builder b = FormatConfig.builder().format(format.name()).codec(codec).valueEncoding(encoding);
        if (format.coordinates()) {
            b.keys(key).headers(headers);
        }
        if (schema != null) {
            b.valueSchema(read(schema));
        }
        if (format == FileFormats.PARQUET) {
            b.rowGroupBytes(rowGroup);
        }
        if (format == FileFormats.RAW) {
            b.delimiter(delimiter);
        }
        FormatConfig config;
        try {
            config = b.build();
        } catch (IllegalArgumentException e) {
            // what the checks above leave to the writers is the schema's content (a union JSON cannot tell apart...)
            throw new InvalidSetting(schema != null ? PipelineKeys.SCHEMA : PipelineKeys.FORMAT,
                    (schema != null ? schema + ": " : "") + e.getMessage());
        }
        return new FileSettings(format, config);
    }

    /**
     * What the writers would refuse, said in the pipeline's terms; false when any of it was added to problems. A schema
     * the format does not take is the encoding's check ({@link #checkEncoding}).
     */
    private static boolean check(Settings s, Problems problems, FileFormats.Entry format, String codec, Path schema,
            boolean kafkaKey, boolean kafkaHeaders, long rowGroupBytes) {
        return InvalidSetting.check(s, problems, format.codecs().contains(codec), PipelineKeys.CODEC, "'" + codec
                + "' is not a codec of " + format.name() + "; expected one of " + String.join(", ", format.codecs())
                + Suggestions.didYouMean(codec, format.codecs()))
                & InvalidSetting.check(s, problems, !format.needsSchema() || schema != null, PipelineKeys.FORMAT,
                        format.name() + " needs sink.schema, an Avro schema (.avsc) of the values")
                & InvalidSetting.check(s, problems, format.coordinates() || !kafkaKey, PipelineKeys.KAFKA_KEY,
                        format.name() + " files hold the values' bytes only, without a key; remove sink.kafka-key")
                & InvalidSetting.check(s, problems, format.coordinates() || !kafkaHeaders, PipelineKeys.KAFKA_HEADERS,
                        format.name() + " files hold the values' bytes only, without headers; remove "
                                + "sink.kafka-headers")
                & InvalidSetting.check(s, problems, rowGroupBytes <= MAX_ROW_GROUP_BYTES, PipelineKeys.ROW_GROUP_SIZE,
                        "is too large; the most is 1GiB");
    }

    private static boolean checkEncoding(Settings s, Problems problems, FileFormats.Entry format, String encoding,
            Path schema) {
        boolean avro = !encoding.equals("json");
        return InvalidSetting.check(s, problems, !avro || format.avroValues(), PipelineKeys.VALUE_ENCODING,
                format.name() + " files hold JSON values as they are; write Avro values to parquet or avro files (the "
                        + "decoded records) or to raw files (their bytes)")
                & InvalidSetting.check(s, problems, !avro || schema != null, PipelineKeys.VALUE_ENCODING, encoding
                        + " values need sink.schema, the Avro schema (.avsc) they were written with")
                & InvalidSetting.check(s, problems, avro || format.needsSchema() || schema == null, PipelineKeys.SCHEMA,
                        format.name() + " files take a schema only for Avro values (sink.value-encoding); remove "
                                + "sink.schema");
    }

    private static String read(Path schema) {
        try {
            return Files.readString(schema, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new InvalidSetting(PipelineKeys.SCHEMA, schema + " does not exist or cannot be read");
        }
    }

    public FileFormats.Entry format() {
        return format;
    }

    /** The writers' configuration: {@code config().fileFormat()} opens files. */
    public FormatConfig config() {
        return config;
    }

    /** For messages: {@code parquet + zstd}. */
    public String describe() {
        return format.name() + " + " + config.codec();
    }
}
