package io.sluice.cli.pipeline;

import io.sluice.cli.config.Settings;
import io.sluice.cli.config.Suggestions;
import io.sluice.cli.config.Types;
import io.sluice.storage.backend.StorageBackend;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Where an archive is and how to reach it: the location, the storage that serves its scheme, and that storage's
 * settings ({@code sink.s3}, {@code sink.hdfs}). What {@code run} writes to and {@code verify} reads from.
 *
 * <p>Immutable; validated at construction.
 *
 * @param s3             how to reach an s3:// location, or null for other locations
 * @param hdfsProperties Hadoop client settings for an hdfs:// location
 */
public record StorageTarget(Location location, StorageBackends.Entry backend, S3Options s3,
        Map<String, String> hdfsProperties) {

    /**
     * S3's rule for new buckets' names: said offline by validate, where the run got a refusal from the store only at
     * its first request ({@code s3://Arch_Bad/} passed validate, a new user's run).
     */
    private static final Pattern BUCKET_NAME = Pattern.compile("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]");

    public StorageTarget {
        hdfsProperties = Map.copyOf(hdfsProperties);
        InvalidSetting.check(!location.scheme().equals("s3") || !location.authority().isEmpty(),
                PipelineKeys.LOCATION, "an s3 location names its bucket: s3://bucket/prefix/");
        InvalidSetting.check((s3 != null) == location.scheme().equals("s3"), PipelineKeys.LOCATION,
                "s3 settings must come with an s3:// location");
        InvalidSetting.check(!location.scheme().equals("s3") || BUCKET_NAME.matcher(location.authority()).matches(),
                PipelineKeys.LOCATION, "'" + location.authority() + "' is not a bucket name S3 takes: 3 to 63 "
                        + "characters of lowercase letters, digits, dots and hyphens, beginning and ending with a "
                        + "letter or digit");
    }

    static StorageTarget from(Settings s, Path base) {
        Location location;
        try {
            location = Location.parse(s.get(PipelineKeys.LOCATION), base);
        } catch (IllegalArgumentException e) {
            throw new InvalidSetting(PipelineKeys.LOCATION, e.getMessage());
        }
        StorageBackends.Entry backend = backend(location);
        InvalidSetting.onlyIf(location.scheme().equals("s3"), s, List.of(PipelineKeys.S3_REGION,
                PipelineKeys.S3_ENDPOINT, PipelineKeys.S3_ACCESS_KEY, PipelineKeys.S3_SECRET_KEY, PipelineKeys.S3_PART_SIZE,
                PipelineKeys.S3_SPOOL_DIRECTORY, PipelineKeys.S3_RETRY_FOR),
                "applies to s3:// locations only, and sink.location is " + location);
        InvalidSetting.onlyIf(location.scheme().equals("hdfs"), s, List.of(PipelineKeys.HDFS_PROPERTIES),
                "applies to hdfs:// locations only, and sink.location is " + location);
        S3Options s3 = location.scheme().equals("s3")
                ? new S3Options(s.get(PipelineKeys.S3_REGION), s.get(PipelineKeys.S3_ENDPOINT),
                        s.get(PipelineKeys.S3_ACCESS_KEY), s.get(PipelineKeys.S3_SECRET_KEY), s.get(PipelineKeys.S3_PART_SIZE),
                        s.find(PipelineKeys.S3_SPOOL_DIRECTORY).map(d -> base.resolve(d).toAbsolutePath().normalize())
                                .orElse(null), s.get(PipelineKeys.S3_RETRY_FOR))
                : null;
        Map<String, String> hdfs = new LinkedHashMap<>();
        for (Types.Property p : s.find(PipelineKeys.HDFS_PROPERTIES).orElse(List.of())) {
            hdfs.put(p.name(), p.text());
        }
        return new StorageTarget(location, backend, s3, hdfs);
    }

    /**
     * A location given on its own (a command-line flag), with the storage's defaults: an s3:// location uses the AWS
     * default credentials chain and the default region.
     *
     * @throws IllegalArgumentException saying what is wrong with the location
     */
    public static StorageTarget of(String location, Path base) {
        Location parsed = Location.parse(location, base);
        try {
            S3Options s3 = parsed.scheme().equals("s3") ? S3Options.defaults() : null;
            return new StorageTarget(parsed, backend(parsed), s3, Map.of());
        } catch (InvalidSetting e) {
            throw new IllegalArgumentException(e.getMessage().substring(e.key().path().length() + 2), e);
        }
    }

    private static StorageBackends.Entry backend(Location location) {
        return StorageBackends.find(location.scheme()).orElseThrow(() -> new InvalidSetting(PipelineKeys.LOCATION,
                "'" + location.scheme() + "://' is not a storage this build knows; expected a folder, "
                        + String.join(", ", StorageBackends.schemes().stream().filter(x -> !x.equals("file"))
                        .map(x -> x + "://").toList()) + Suggestions.didYouMean(location.scheme(),
                        StorageBackends.schemes())));
    }

    /**
     * This storage with each request retried for at most {@code limit}: for a check that a person waits on, where the
     * run's retry window (5 minutes for S3 by default, to ride out an outage) read as a silent hang of that length
     * for a mistyped endpoint (a new user's run: {@code validate --connect} and {@code verify} said nothing for 300 s).
     */
    public StorageTarget withRetryAtMost(java.time.Duration limit) {
        return s3 == null ? this : new StorageTarget(location, backend, s3.withRetryAtMost(limit), hdfsProperties);
    }

    /** Connects to the storage. Throws for a storage this build does not have yet. */
    public StorageBackend open() throws IOException {
        if (!backend.available()) {
            throw new IllegalStateException(backend.scheme() + ":// is not in this build yet (" + backend.pending() + ")");
        }
        return backend.factory().create(this);
    }
}
