package io.sluice.cli.pipeline;

import io.sluice.cli.config.ConfigKey;
import io.sluice.cli.config.Settings;
import io.sluice.cli.config.Suggestions;
import io.sluice.cli.config.Types;
import io.sluice.storage.layout.Layout;
import io.sluice.storage.rolling.RollingPolicy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where and how a pipeline archives: the location and its storage backend, the folder layout, the file format and
 * codec, rolling, and the delivery guarantee.
 *
 * <p>Immutable; validated at construction (the path template is parsed into its {@link Layout} here).
 *
 * @param schema         an Avro schema file, or null
 * @param s3             how to reach an s3:// location, or null for other locations
 * @param hdfsProperties Hadoop client settings for an hdfs:// location
 */
public record SinkConfig(Location location, StorageBackends.Entry backend, String template, String timeField,
        ZoneId timeZone, String defaultBucket, FileFormats.Entry format, String codec, Path schema, boolean kafkaKey,
        boolean kafkaHeaders, Delivery delivery, RollingPolicy rolling, S3Options s3,
        Map<String, String> hdfsProperties, Layout layout) {

    public SinkConfig {
        hdfsProperties = Map.copyOf(hdfsProperties);
        InvalidSetting.check(!location.scheme().equals("s3") || !location.authority().isEmpty(),
                PipelineKeys.LOCATION, "an s3 location names its bucket: s3://bucket/prefix/");
        InvalidSetting.check(format.codecs().contains(codec), PipelineKeys.CODEC, "'" + codec + "' is not a codec of "
                + format.name() + "; expected one of " + String.join(", ", format.codecs())
                + Suggestions.didYouMean(codec, format.codecs()));
        InvalidSetting.check(!format.needsSchema() || schema != null, PipelineKeys.FORMAT,
                format.name() + " needs sink.schema, an Avro schema (.avsc) of the values");
        InvalidSetting.check(format.needsSchema() || schema == null, PipelineKeys.SCHEMA,
                format.name() + " files take no schema; remove sink.schema");
        InvalidSetting.check(schema == null || Files.isReadable(schema), PipelineKeys.SCHEMA,
                schema + " does not exist or cannot be read");
        InvalidSetting.check((s3 != null) == location.scheme().equals("s3"), PipelineKeys.LOCATION,
                "s3 settings must come with an s3:// location");
    }

    static SinkConfig from(Settings s, Path base) {
        Location location;
        try {
            location = Location.parse(s.get(PipelineKeys.LOCATION), base);
        } catch (IllegalArgumentException e) {
            throw new InvalidSetting(PipelineKeys.LOCATION, e.getMessage());
        }
        StorageBackends.Entry backend = StorageBackends.find(location.scheme()).orElseThrow(() -> new InvalidSetting(
                PipelineKeys.LOCATION, "'" + location.scheme() + "://' is not a storage this build knows; expected a "
                        + "folder, " + String.join(", ", StorageBackends.schemes().stream().filter(x -> !x.equals("file"))
                        .map(x -> x + "://").toList()) + Suggestions.didYouMean(location.scheme(), StorageBackends.schemes())));
        onlyFor(s, "s3", location, List.of(PipelineKeys.S3_REGION, PipelineKeys.S3_ENDPOINT, PipelineKeys.S3_ACCESS_KEY,
                PipelineKeys.S3_SECRET_KEY, PipelineKeys.S3_PART_SIZE));
        onlyFor(s, "hdfs", location, List.of(PipelineKeys.HDFS_PROPERTIES));
        S3Options s3 = location.scheme().equals("s3")
                ? new S3Options(s.get(PipelineKeys.S3_REGION), s.get(PipelineKeys.S3_ENDPOINT),
                        s.get(PipelineKeys.S3_ACCESS_KEY), s.get(PipelineKeys.S3_SECRET_KEY), s.get(PipelineKeys.S3_PART_SIZE))
                : null;
        Map<String, String> hdfs = new LinkedHashMap<>();
        for (Types.Property p : s.find(PipelineKeys.HDFS_PROPERTIES).orElse(List.of())) {
            hdfs.put(p.name(), p.text());
        }

        FileFormats.Entry format = FileFormats.find(s.get(PipelineKeys.FORMAT)).orElseThrow();
        String codec = s.find(PipelineKeys.CODEC).map(String::trim).orElse(format.defaultCodec());
        Path schema = s.find(PipelineKeys.SCHEMA).map(f -> base.resolve(f).toAbsolutePath().normalize()).orElse(null);
        Layout layout;
        try {
            layout = new Layout(s.get(PipelineKeys.TEMPLATE), s.get(PipelineKeys.TIME_FIELD), s.get(PipelineKeys.TIME_ZONE),
                    s.get(PipelineKeys.DEFAULT_BUCKET));
        } catch (IllegalArgumentException e) {
            throw new InvalidSetting(PipelineKeys.TEMPLATE, e.getMessage());
        }
        RollingPolicy rolling = new RollingPolicy(s.get(PipelineKeys.MAX_BYTES), s.get(PipelineKeys.MAX_RECORDS),
                s.get(PipelineKeys.MAX_AGE), s.get(PipelineKeys.MAX_OPEN_FILES));
        return new SinkConfig(location, backend, s.get(PipelineKeys.TEMPLATE), s.get(PipelineKeys.TIME_FIELD),
                s.get(PipelineKeys.TIME_ZONE), s.get(PipelineKeys.DEFAULT_BUCKET), format, codec, schema,
                s.get(PipelineKeys.KAFKA_KEY), s.get(PipelineKeys.KAFKA_HEADERS), s.get(PipelineKeys.DELIVERY), rolling,
                s3, hdfs, layout);
    }

    private static void onlyFor(Settings s, String scheme, Location location, List<ConfigKey<?>> keys) {
        if (location.scheme().equals(scheme)) {
            return;
        }
        for (ConfigKey<?> key : keys) {
            InvalidSetting.check(!s.isSet(key), key, "applies to " + scheme + ":// locations only, and sink.location is "
                    + location);
        }
    }

    /** What the format's writer needs. */
    public FileFormats.Options formatOptions() {
        return new FileFormats.Options(codec, kafkaKey, kafkaHeaders, schema);
    }

    /** For messages: {@code jsonl + zstd, exactly once, to s3://bucket/prefix/}. */
    public String describe() {
        return format.name() + " + " + codec + ", " + delivery.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-')
                + ", to " + location;
    }
}
