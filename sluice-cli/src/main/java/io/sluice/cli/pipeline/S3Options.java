package io.sluice.cli.pipeline;

import io.sluice.cli.config.Secret;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;

/**
 * How to reach an {@code s3://} location: region, an optional endpoint of an S3-compatible store, static credentials
 * or none (the AWS default chain), the multipart part size, where parts spool, and how long requests are retried.
 *
 * <p>Immutable; validated at construction.
 *
 * @param spoolDirectory where parts accumulate, or null for the storage's default
 */
public record S3Options(String region, String endpoint, String accessKey, Secret secretKey, long partSize,
        Path spoolDirectory, Duration retryFor) {

    public S3Options {
        InvalidSetting.check((accessKey == null) == (secretKey == null),
                accessKey == null ? PipelineKeys.S3_SECRET_KEY : PipelineKeys.S3_ACCESS_KEY,
                "give both access-key and secret-key, or neither (then the AWS default credentials apply)");
        if (endpoint != null) {
            URI uri;
            try {
                uri = URI.create(endpoint);
            } catch (IllegalArgumentException e) {
                uri = null;
            }
            // "127.0.0.1:9000" is no URL at all, and "localhost:9000" one of the scheme "localhost": the fix is the same
            InvalidSetting.check(uri != null && ("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))
                    && uri.getHost() != null, PipelineKeys.S3_ENDPOINT,
                    "'" + endpoint + "' is not an http:// or https:// URL with a host" + (endpoint.contains("://") ? ""
                            : " (did you mean http://" + endpoint + "?)"));
        }
        InvalidSetting.check(partSize <= Integer.MAX_VALUE, PipelineKeys.S3_PART_SIZE, "must be under 2GiB");
    }

    /** These options with requests retried for at most {@code limit}. */
    S3Options withRetryAtMost(Duration limit) {
        return retryFor.compareTo(limit) <= 0 ? this
                : new S3Options(region, endpoint, accessKey, secretKey, partSize, spoolDirectory, limit);
    }

    /** The keys' defaults: AWS in the default region, with the AWS default credentials chain. */
    static S3Options defaults() {
        return new S3Options(PipelineKeys.S3_REGION.defaultValue(), null, null, null,
                PipelineKeys.S3_PART_SIZE.defaultValue(), null, PipelineKeys.S3_RETRY_FOR.defaultValue());
    }
}
