package io.sluice.storage.backend;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;

/**
 * Where and how {@link S3Backend} stores: the bucket and key prefix, the endpoint (for S3-compatible stores), the
 * credentials, the part size, the local spool directory parts accumulate in, and how long a request is retried
 * before the store counts as down. Immutable; built and validated by {@link #builder(String)}.
 */
public final class S3Config {

    /** S3's smallest part, except the last. */
    public static final int MIN_PART_SIZE = 5 * 1024 * 1024;

    private final URI endpoint;
    private final String region;
    private final AwsCredentialsProvider credentials;
    private final String bucket;
    private final String prefix;
    private final int partSize;
    private final Path spoolDirectory;
    private final Duration retryFor;

    private S3Config(Builder b) {
        this.endpoint = b.endpoint;
        this.region = b.region;
        this.credentials = b.credentials != null ? b.credentials : DefaultCredentialsProvider.builder().build();
        this.bucket = b.bucket;
        this.prefix = b.prefix;
        this.partSize = b.partSize;
        this.spoolDirectory = b.spoolDirectory;
        this.retryFor = b.retryFor;
    }

    public static Builder builder(String bucket) {
        return new Builder(bucket);
    }

    /** The endpoint override, or null for AWS itself. */
    public URI endpoint() {
        return endpoint;
    }

    public String region() {
        return region;
    }

    public AwsCredentialsProvider credentials() {
        return credentials;
    }

    public String bucket() {
        return bucket;
    }

    /** The key prefix of the archive root: empty or ending with '/'. */
    public String prefix() {
        return prefix;
    }

    public int partSize() {
        return partSize;
    }

    public Path spoolDirectory() {
        return spoolDirectory;
    }

    public Duration retryFor() {
        return retryFor;
    }

    /** Builder; {@link #build()} validates. */
    public static final class Builder {
        private URI endpoint;
        private String region = "us-east-1";
        private AwsCredentialsProvider credentials;
        private final String bucket;
        private String prefix = "";
        private int partSize = 8 * 1024 * 1024;
        private Path spoolDirectory = Path.of(System.getProperty("java.io.tmpdir"), "sluice-s3-spool");
        private Duration retryFor = Duration.ofMinutes(5);

        private Builder(String bucket) {
            this.bucket = bucket;
        }

        /** An S3-compatible store (MinIO, Ceph, s3proxy): path-style requests to this endpoint. */
        public Builder endpoint(URI endpoint) {
            this.endpoint = endpoint;
            return this;
        }

        /** Default us-east-1. */
        public Builder region(String region) {
            this.region = region;
            return this;
        }

        /** Default: the AWS SDK's standard chain (environment, system properties, profile, container, instance). */
        public Builder credentials(AwsCredentialsProvider credentials) {
            this.credentials = credentials;
            return this;
        }

        /** The key prefix of the archive root, "" (the default) or ending with '/'. */
        public Builder prefix(String prefix) {
            this.prefix = prefix;
            return this;
        }

        /**
         * Bytes per part, at least 5 MiB; default 8 MiB. Each open file spools up to this much on local disk (not on
         * the heap) before uploading it.
         */
        public Builder partSize(int bytes) {
            this.partSize = bytes;
            return this;
        }

        /**
         * Where parts accumulate before upload; default {@code <java.io.tmpdir>/sluice-s3-spool}. Needs up to part size
         * × open files of space. What a killed run left there is removed at start.
         */
        public Builder spoolDirectory(Path dir) {
            this.spoolDirectory = dir;
            return this;
        }

        /**
         * How long one request is retried (with backoff) on 5xx answers, throttling and connection errors before the
         * store counts as down and the engine stops; default 5 minutes. While it retries, the partition's lane waits
         * and the engine's memory budget pauses fetching.
         */
        public Builder retryFor(Duration duration) {
            this.retryFor = duration;
            return this;
        }

        public S3Config build() {
            Objects.requireNonNull(bucket, "bucket");
            Objects.requireNonNull(region, "region");
            Objects.requireNonNull(spoolDirectory, "spool directory");
            if (partSize < MIN_PART_SIZE) {
                throw new IllegalArgumentException("S3 parts must be at least 5 MiB, not " + partSize + " bytes");
            }
            if (prefix == null || !prefix.isEmpty() && !prefix.endsWith("/")) {
                throw new IllegalArgumentException("the key prefix '" + prefix + "' must be empty or end with '/'");
            }
            if (retryFor == null || retryFor.isNegative() || retryFor.isZero()) {
                throw new IllegalArgumentException("the retry time must be positive, not " + retryFor);
            }
            return new S3Config(this);
        }
    }
}
