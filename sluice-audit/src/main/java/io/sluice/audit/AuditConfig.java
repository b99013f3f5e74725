package io.sluice.audit;

import io.sluice.storage.backend.StorageBackend;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.kafka.clients.CommonClientConfigs;

/**
 * What to audit: a topic in Kafka against an archive in storage. Immutable; {@link Builder#build()} checks everything,
 * so a bad setting is a usage error before any request is made.
 *
 * <p>Threading: immutable, safe to share. The storage backend is used, not owned: the caller closes it.
 */
public final class AuditConfig {

    /** Per partition, the offsets to audit: from {@code from} up to, not including, {@code until}. */
    public record OffsetRange(long from, long until) {

        /** {@code until} when the range runs to the last stable offset seen when the audit starts. */
        public static final long LAST_STABLE = Long.MAX_VALUE;

        public OffsetRange {
            if (from < 0 || until < from) {
                throw new IllegalArgumentException("an offset range needs 0 <= from <= until, not " + from + ".." + until);
            }
        }
    }

    private final Map<String, Object> kafkaProperties;
    private final String topic;
    private final StorageBackend storage;
    private final SortedMap<Integer, OffsetRange> ranges;
    private final String deadLetterTopic;
    private final String groupId;
    private final int listLimit;
    private final int readThreads;
    private final Path workDir;
    private final Duration timeout;
    private final AuditProgress progress;

    private AuditConfig(Builder b) {
        this.kafkaProperties = Map.copyOf(b.kafkaProperties);
        this.topic = b.topic;
        this.storage = b.storage;
        this.ranges = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(b.ranges));
        this.deadLetterTopic = b.deadLetterTopic;
        this.groupId = b.groupId;
        this.listLimit = b.listLimit;
        this.readThreads = b.readThreads;
        this.workDir = b.workDir;
        this.timeout = b.timeout;
        this.progress = b.progress;
    }

    public static Builder builder() {
        return new Builder();
    }

    public Map<String, Object> kafkaProperties() {
        return kafkaProperties;
    }

    public String topic() {
        return topic;
    }

    public StorageBackend storage() {
        return storage;
    }

    /** The partitions to audit with their ranges; empty means every partition, log start to last stable offset. */
    public SortedMap<Integer, OffsetRange> ranges() {
        return ranges;
    }

    public Optional<String> deadLetterTopic() {
        return Optional.ofNullable(deadLetterTopic);
    }

    public Optional<String> groupId() {
        return Optional.ofNullable(groupId);
    }

    public int listLimit() {
        return listLimit;
    }

    public int readThreads() {
        return readThreads;
    }

    public Path workDir() {
        return workDir;
    }

    public Duration timeout() {
        return timeout;
    }

    public AuditProgress progress() {
        return progress;
    }

    /** Builder with the defaults documented on each method. */
    public static final class Builder {
        private final Map<String, Object> kafkaProperties = new HashMap<>();
        private String topic;
        private StorageBackend storage;
        private final Map<Integer, OffsetRange> ranges = new HashMap<>();
        private String deadLetterTopic;
        private String groupId;
        private int listLimit = 20;
        private int readThreads = Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors()));
        private Path workDir = Path.of(System.getProperty("java.io.tmpdir"));
        private Duration timeout = Duration.ofSeconds(60);
        private AuditProgress progress = AuditProgress.NONE;

        private Builder() {
        }

        /**
         * Kafka client settings: {@code bootstrap.servers} (required) and any security settings. The audit sets its own
         * isolation level (read_committed), offsets handling and deserializers, and uses no consumer group.
         */
        public Builder kafkaProperties(Map<String, ?> properties) {
            kafkaProperties.putAll(properties);
            return this;
        }

        public Builder kafkaProperty(String key, Object value) {
            kafkaProperties.put(key, value);
            return this;
        }

        /** The archived topic; required. */
        public Builder topic(String topic) {
            this.topic = topic;
            return this;
        }

        /** Where the archive is (its root, as the archiver was given it); required. */
        public Builder storage(StorageBackend storage) {
            this.storage = storage;
            return this;
        }

        /**
         * Audits {@code partition} from {@code from} up to, not including, {@code until} (or
         * {@link OffsetRange#LAST_STABLE}). Once any range is given, only the partitions with a range are audited.
         */
        public Builder range(int partition, long from, long until) {
            if (partition < 0) {
                throw new IllegalArgumentException("a partition number is never negative: " + partition);
            }
            ranges.put(partition, new OffsetRange(from, until));
            return this;
        }

        /** The engine's dead-letter topic: records found there are not expected in the archive, and are listed. */
        public Builder deadLetterTopic(String topic) {
            this.deadLetterTopic = topic;
            return this;
        }

        /**
         * The archiver's consumer group: the manifest each committed offset names must exist and its files must be
         * visible, and gaps at or above the committed offset are told apart as not archived yet.
         */
        public Builder groupId(String groupId) {
            this.groupId = groupId;
            return this;
        }

        /** How many ranges, files or dead letters each list of the report shows at most; counts are always whole. Default 20. */
        public Builder listLimit(int limit) {
            this.listLimit = limit;
            return this;
        }

        /** Files read (downloaded, decompressed, parsed) at the same time. Default: the cores, at most 4. */
        public Builder readThreads(int threads) {
            this.readThreads = threads;
            return this;
        }

        /** Where files are downloaded to while they are read (one per read thread at a time). Default: java.io.tmpdir. */
        public Builder workDir(Path dir) {
            this.workDir = dir;
            return this;
        }

        /** How long a Kafka request may take, or reading may make no progress, before the audit gives up. Default 60 s. */
        public Builder timeout(Duration timeout) {
            this.timeout = timeout;
            return this;
        }

        /** Told after each data file is read. Default: nothing. */
        public Builder progress(AuditProgress progress) {
            this.progress = Objects.requireNonNull(progress, "progress");
            return this;
        }

        public AuditConfig build() {
            require(kafkaProperties.get(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG) != null,
                    "bootstrap.servers is required: where the Kafka brokers are, e.g. broker1:9092");
            require(topic != null && !topic.isBlank(), "topic is required: the topic the archive was written from");
            require(storage != null, "storage is required: the archive's root, where the archiver wrote");
            require(deadLetterTopic == null || !deadLetterTopic.isBlank(), "the dead-letter topic name is blank");
            require(!Objects.equals(deadLetterTopic, topic), "the dead-letter topic cannot be the audited topic");
            require(groupId == null || !groupId.isBlank(), "the group ID is blank");
            require(listLimit >= 1, "the list limit must be at least 1, not " + listLimit);
            require(readThreads >= 1 && readThreads <= 64, "read threads must be 1..64, not " + readThreads);
            require(workDir != null, "a work directory is required");
            require(timeout != null && !timeout.isNegative() && !timeout.isZero(), "the timeout must be positive");
            return new AuditConfig(this);
        }

        private static void require(boolean condition, String message) {
            if (!condition) {
                throw new IllegalArgumentException(message);
            }
        }
    }
}
