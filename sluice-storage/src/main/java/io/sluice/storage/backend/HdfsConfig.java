package io.sluice.storage.backend;

import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Where and how {@link HdfsBackend} writes: the file system ({@code fs.defaultFS}, e.g. {@code hdfs://nn:8020}), the
 * archive's root folder on it, extra Hadoop client properties (as in {@code hdfs-site.xml}: HA name services,
 * replication, timeouts), and how long recovery waits for HDFS to close a file a dead writer left open.
 *
 * <p>Immutable; build one with {@link #builder}.
 */
public final class HdfsConfig {

    private final URI fileSystem;
    private final String root;
    private final Map<String, String> properties;
    private final Duration leaseRecoveryTimeout;

    private HdfsConfig(Builder b) {
        this.fileSystem = Objects.requireNonNull(b.fileSystem, "fileSystem (the fs.defaultFS URI, e.g. hdfs://nn:8020)");
        if (fileSystem.getScheme() == null) {
            throw new IllegalArgumentException("the file system URI " + fileSystem + " has no scheme; write it as "
                    + "hdfs://<namenode>:<port> or hdfs://<name service>");
        }
        if (!b.root.startsWith("/")) {
            throw new IllegalArgumentException("the archive root '" + b.root + "' must be an absolute path, e.g. /archive");
        }
        this.root = b.root.endsWith("/") && b.root.length() > 1 ? b.root.substring(0, b.root.length() - 1) : b.root;
        this.properties = Map.copyOf(b.properties);
        if (b.leaseRecoveryTimeout.isNegative() || b.leaseRecoveryTimeout.isZero()) {
            throw new IllegalArgumentException("the lease recovery timeout must be positive, not "
                    + b.leaseRecoveryTimeout);
        }
        this.leaseRecoveryTimeout = b.leaseRecoveryTimeout;
    }

    public static Builder builder(URI fileSystem) {
        return new Builder(fileSystem);
    }

    public URI fileSystem() {
        return fileSystem;
    }

    /** The archive's root folder, absolute, without a trailing slash (but "/" itself). */
    public String root() {
        return root;
    }

    public Map<String, String> properties() {
        return properties;
    }

    public Duration leaseRecoveryTimeout() {
        return leaseRecoveryTimeout;
    }

    /** Not thread-safe. */
    public static final class Builder {
        private final URI fileSystem;
        private String root = "/";
        private final Map<String, String> properties = new LinkedHashMap<>();
        private Duration leaseRecoveryTimeout = Duration.ofSeconds(120);

        private Builder(URI fileSystem) {
            this.fileSystem = fileSystem;
        }

        public Builder root(String root) {
            this.root = Objects.requireNonNull(root, "root");
            return this;
        }

        /** A Hadoop client property, e.g. {@code dfs.replication}; it overrides the backend's defaults. */
        public Builder property(String key, String value) {
            properties.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value of " + key));
            return this;
        }

        public Builder properties(Map<String, String> more) {
            more.forEach(this::property);
            return this;
        }

        /**
         * How long recovery waits for HDFS to close a file a dead writer left open (lease recovery needs the DataNodes
         * to agree on the last block's length, usually seconds). Default 2 minutes.
         */
        public Builder leaseRecoveryTimeout(Duration timeout) {
            this.leaseRecoveryTimeout = Objects.requireNonNull(timeout, "timeout");
            return this;
        }

        public HdfsConfig build() {
            return new HdfsConfig(this);
        }
    }
}
