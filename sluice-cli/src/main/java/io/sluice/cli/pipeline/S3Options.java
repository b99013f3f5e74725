package io.sluice.cli.pipeline;

import io.sluice.cli.config.Secret;
import java.net.URI;

/**
 * How to reach an {@code s3://} location: region, an optional endpoint of an S3-compatible store, static credentials
 * or none (the AWS default chain), and the multipart part size.
 *
 * <p>Immutable; validated at construction.
 */
public record S3Options(String region, String endpoint, String accessKey, Secret secretKey, long partSize) {

    public S3Options {
        InvalidSetting.check((accessKey == null) == (secretKey == null),
                accessKey == null ? PipelineKeys.S3_SECRET_KEY : PipelineKeys.S3_ACCESS_KEY,
                "give both access-key and secret-key, or neither (then the AWS default credentials apply)");
        if (endpoint != null) {
            URI uri;
            try {
                uri = URI.create(endpoint);
            } catch (IllegalArgumentException e) {
                throw new InvalidSetting(PipelineKeys.S3_ENDPOINT, "'" + endpoint + "' is not a URL");
            }
            InvalidSetting.check(("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))
                    && uri.getHost() != null, PipelineKeys.S3_ENDPOINT,
                    "'" + endpoint + "' is not an http:// or https:// URL with a host");
        }
        InvalidSetting.check(partSize <= Integer.MAX_VALUE, PipelineKeys.S3_PART_SIZE, "must be under 2GiB");
    }
}
