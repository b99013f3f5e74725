package io.sluice.cli.pipeline;

import io.sluice.cli.config.Problems;
import io.sluice.cli.config.Settings;
import io.sluice.cli.config.Types;
import io.sluice.storage.layout.Layout;
import io.sluice.storage.rolling.RollingPolicy;
import io.sluice.storage.sink.ArchiveSink;
import io.sluice.storage.value.InvalidFieldPathException;
import java.nio.file.Path;
import java.time.ZoneId;

/**
 * Where and how a pipeline archives: the location and its storage, the folder layout, the files' format, rolling,
 * and the delivery guarantee.
 *
 * <p>Immutable; validated at construction (the path template is parsed into its {@link Layout} here, and its fields
 * are checked against the values' schema: of Avro values, or of the rows JSON values become).
 */
public record SinkConfig(StorageTarget storage, String template, String timeField, ZoneId timeZone,
        String defaultBucket, FileSettings files, Delivery delivery, RollingPolicy rolling, Layout layout) {

    /**
     * The sink section of {@code s}, or null when it has mistakes: then every one of them is in {@code problems}
     * (the storage, the files, the template and its fields against the schema are each checked, whatever the others
     * found).
     *
     * @param toRun whether the pipeline is to be run (or validated): then a template whose time patterns make
     *     misleading folders ({@link Layout#timeMistake()}) is refused; a command reading an archive made so takes it
     *     as it is
     */
    static SinkConfig from(Settings s, Path base, Problems problems, boolean toRun) {
        StorageTarget storage = InvalidSetting.collect(s, problems, () -> StorageTarget.from(s, base));
        FileSettings files = FileSettings.from(s, base, problems);
        Layout layout = InvalidSetting.collect(s, problems, () -> layout(s));
        if (toRun && layout != null && layout.timeMistake() != null) {
            // said with the other mistakes, whatever they are, not only once the rest of the sink is right
            InvalidSetting.collect(s, problems, () -> {
                throw new InvalidSetting(PipelineKeys.TEMPLATE, "the time patterns of the path template '"
                        + s.get(PipelineKeys.TEMPLATE) + "': " + layout.timeMistake());
            });
        }
        boolean fieldsFound = files != null && layout != null
                && InvalidSetting.collect(s, problems, () -> checkFields(layout, files)) != null;
        RollingPolicy rolling = new RollingPolicy(s.get(PipelineKeys.MAX_BYTES), s.get(PipelineKeys.MAX_RECORDS),
                s.get(PipelineKeys.MAX_AGE), s.get(PipelineKeys.MAX_OPEN_FILES));
        if (storage == null || !fieldsFound) {
            return null;
        }
        return new SinkConfig(storage, s.get(PipelineKeys.TEMPLATE), s.get(PipelineKeys.TIME_FIELD),
                s.get(PipelineKeys.TIME_ZONE), s.get(PipelineKeys.DEFAULT_BUCKET), files, s.get(PipelineKeys.DELIVERY),
                rolling, layout);
    }

    private static Layout layout(Settings s) {
        try {
            return new Layout(s.get(PipelineKeys.TEMPLATE), s.get(PipelineKeys.TIME_FIELD), s.get(PipelineKeys.TIME_ZONE),
                    s.get(PipelineKeys.DEFAULT_BUCKET));
        } catch (IllegalArgumentException e) {
            throw new InvalidSetting(PipelineKeys.TEMPLATE, e.getMessage());
        }
    }

    /** The layout's value fields against the values' schema, when there is one (Avro values, or JSON as rows). */
    private static Boolean checkFields(Layout layout, FileSettings files) {
        try {
            ArchiveSink.valueReader(layout, files.config().fileFormat());
            return true;
        } catch (InvalidFieldPathException e) {
            throw new InvalidSetting(e.path().time() ? PipelineKeys.TIME_FIELD : PipelineKeys.TEMPLATE, e.getMessage());
        }
    }

    public Location location() {
        return storage.location();
    }

    /** For messages: {@code jsonl + zstd, exactly once, to s3://bucket/prefix/}. */
    public String describe() {
        return files.describe() + ", " + Types.name(delivery) + ", to " + storage.location();
    }
}
