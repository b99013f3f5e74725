package io.sluice.core;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;
import io.sluice.core.commit.CommitPoint;
import io.sluice.core.internal.budget.MemoryBudget;
import io.sluice.core.internal.ledger.CompletionMap;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.ConsumerConfig;

/**
 * How the engine consumes and processes. Immutable; {@link #builder()} validates everything at {@link Builder#build()},
 * so a running engine never meets a bad setting.
 */
public final class EngineConfig {

    /** Kafka's default {@code offset.metadata.max.bytes}; the completion map must fit under it with room to spare. */
    static final int METADATA_LIMIT = 4096;
    /** Characters of the metadata kept for the engine's header and a sink's own data. */
    static final int METADATA_RESERVE = 1024;

    private final Map<String, Object> consumerProperties;
    private final Map<String, Object> producerProperties;
    private final List<String> topics;
    private final Pattern topicPattern;
    private final Ordering ordering;
    private final LaneFunction laneFunction;
    private final int concurrency;
    private final int lanesPerPartition;
    private final long memoryBudgetBytes;
    private final int window;
    private final Duration commitInterval;
    private final Duration drainTimeout;
    private final Duration processingTimeout;
    private final int maxAttempts;
    private final Duration initialBackoff;
    private final Duration maxBackoff;
    private final FailureOutcome failureOutcome;
    private final String deadLetterTopic;
    private final Duration deadLetterRetryFor;
    private final StartPosition startPosition;
    private final OutOfRangePolicy outOfRangePolicy;
    private final Duration stuckThreshold;
    private final MeterRegistry meterRegistry;
    private final boolean virtualThreads;
    private final Instant startTimestamp;
    private final TimestampStart timestampStart;
    private final boolean untilEnd;
    private final long maxReadBytesPerSecond;
    private final CommitPoint.Factory commitPoint;

    private EngineConfig(Builder b) {
        this.consumerProperties = Map.copyOf(b.consumerProperties);
        this.producerProperties = Map.copyOf(b.producerProperties);
        this.topics = List.copyOf(b.topics);
        this.topicPattern = b.topicPattern;
        this.ordering = b.ordering;
        this.laneFunction = b.laneFunction;
        this.concurrency = b.concurrency;
        this.lanesPerPartition = b.lanesPerPartition;
        this.memoryBudgetBytes = b.memoryBudgetBytes;
        this.window = b.window;
        this.commitInterval = b.commitInterval;
        this.drainTimeout = b.drainTimeout;
        this.processingTimeout = b.processingTimeout;
        this.maxAttempts = b.maxAttempts;
        this.initialBackoff = b.initialBackoff;
        this.maxBackoff = b.maxBackoff;
        this.failureOutcome = b.failureOutcome;
        this.deadLetterTopic = b.deadLetterTopic;
        this.deadLetterRetryFor = b.deadLetterRetryFor;
        this.startPosition = b.startPosition;
        this.outOfRangePolicy = b.outOfRangePolicy;
        this.stuckThreshold = b.stuckThreshold;
        this.meterRegistry = b.meterRegistry;
        this.virtualThreads = b.virtualThreads;
        this.startTimestamp = b.startTimestamp;
        this.timestampStart = b.timestampStart;
        this.untilEnd = b.untilEnd;
        this.maxReadBytesPerSecond = b.maxReadBytesPerSecond;
        this.commitPoint = b.commitPoint;
    }

    /** What makes progress true: the source group's offset commit unless a builder chose another. */
    public CommitPoint.Factory commitPoint() {
        return commitPoint;
    }

    /**
     * {@code max.partition.fetch.bytes} and {@code fetch.max.bytes} as the engine derives them from a memory budget (a
     * consumer setting given explicitly wins), so that a tool measured beside the engine can fetch alike.
     */
    public static Map<String, Object> fetchSizes(long memoryBudgetBytes) {
        MemoryBudget budget = new MemoryBudget(memoryBudgetBytes);
        return Map.of(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, budget.partitionFetchBytes(),
                ConsumerConfig.FETCH_MAX_BYTES_CONFIG, budget.fetchMaxBytes());
    }

    public static Builder builder() {
        return new Builder();
    }

    public Map<String, Object> consumerProperties() {
        return consumerProperties;
    }

    /** Settings of the dead-letter producer beyond the connection and security ones it shares with the consumer. */
    public Map<String, Object> producerProperties() {
        return producerProperties;
    }

    /** The topics named; empty when a {@link #topicPattern()} says which. */
    public List<String> topics() {
        return topics;
    }

    /** The pattern whole topic names must match, when no topics are named. */
    public Optional<Pattern> topicPattern() {
        return Optional.ofNullable(topicPattern);
    }

    public Ordering ordering() {
        return ordering;
    }

    /** The user's lane function, or null when {@link #ordering()} decides. */
    public LaneFunction laneFunction() {
        return laneFunction;
    }

    public int concurrency() {
        return concurrency;
    }

    public int lanesPerPartition() {
        return lanesPerPartition;
    }

    public long memoryBudgetBytes() {
        return memoryBudgetBytes;
    }

    public int window() {
        return window;
    }

    public Duration commitInterval() {
        return commitInterval;
    }

    public Duration drainTimeout() {
        return drainTimeout;
    }

    public Duration processingTimeout() {
        return processingTimeout;
    }

    public int maxAttempts() {
        return maxAttempts;
    }

    public Duration initialBackoff() {
        return initialBackoff;
    }

    public Duration maxBackoff() {
        return maxBackoff;
    }

    public FailureOutcome failureOutcome() {
        return failureOutcome;
    }

    public String deadLetterTopic() {
        return deadLetterTopic;
    }

    /** How long a dead letter may wait for the brokers (metadata, then delivery) before the engine stops. */
    public Duration deadLetterRetryFor() {
        return deadLetterRetryFor;
    }

    public StartPosition startPosition() {
        return startPosition;
    }

    public OutOfRangePolicy outOfRangePolicy() {
        return outOfRangePolicy;
    }

    public Duration stuckThreshold() {
        return stuckThreshold;
    }

    public MeterRegistry meterRegistry() {
        return meterRegistry;
    }

    public boolean virtualThreads() {
        return virtualThreads;
    }

    /** Where partitions start by record time, or null; {@link #timestampStart()} says which partitions. */
    public Instant startTimestamp() {
        return startTimestamp;
    }

    public TimestampStart timestampStart() {
        return timestampStart;
    }

    /** Whether the run stops by itself at the end offsets seen when it started. */
    public boolean untilEnd() {
        return untilEnd;
    }

    /** The most bytes per second read from the brokers (keys, values, headers), or 0 for no limit. */
    public long maxReadBytesPerSecond() {
        return maxReadBytesPerSecond;
    }

    public String groupId() {
        return (String) consumerProperties.get(ConsumerConfig.GROUP_ID_CONFIG);
    }

    /** Builder with the defaults documented on each method. */
    public static final class Builder {
        private final Map<String, Object> consumerProperties = new HashMap<>();
        private final Map<String, Object> producerProperties = new HashMap<>();
        private List<String> topics = List.of();
        private Pattern topicPattern;
        private Ordering ordering = Ordering.KEY;
        private LaneFunction laneFunction;
        private int concurrency = 64;
        private int lanesPerPartition = 256;
        private long memoryBudgetBytes = 256L * 1024 * 1024;
        private int window = 16_384;
        private Duration commitInterval = Duration.ofSeconds(1);
        private Duration drainTimeout = Duration.ofSeconds(30);
        private Duration processingTimeout = Duration.ofMinutes(1);
        private int maxAttempts = 3;
        private Duration initialBackoff = Duration.ofMillis(100);
        private Duration maxBackoff = Duration.ofSeconds(10);
        private FailureOutcome failureOutcome = FailureOutcome.STOP;
        private String deadLetterTopic;
        /**
         * A rolling restart of a broker takes tens of seconds per broker (about 25 s locally) and the consumer side
         * rides it out; the dead-letter path must too, or one rejected record stops the archiver. Two minutes covers a
         * restart with room, and still stops a run whose dead-letter topic is really gone.
         */
        private Duration deadLetterRetryFor = Duration.ofMinutes(2);
        private StartPosition startPosition = StartPosition.EARLIEST;
        private OutOfRangePolicy outOfRangePolicy = OutOfRangePolicy.FAIL;
        private Duration stuckThreshold = Duration.ofMinutes(2);
        private MeterRegistry meterRegistry = Metrics.globalRegistry;
        private boolean virtualThreads;
        private Instant startTimestamp;
        private TimestampStart timestampStart = TimestampStart.UNCOMMITTED;
        private boolean untilEnd;
        private long maxReadBytesPerSecond;
        private CommitPoint.Factory commitPoint = CommitPoint.sourceGroup();

        private Builder() {
        }

        /** Kafka consumer settings; {@code bootstrap.servers} and {@code group.id} are required. */
        public Builder consumerProperties(Map<String, ?> properties) {
            consumerProperties.putAll(properties);
            return this;
        }

        public Builder consumerProperty(String key, Object value) {
            consumerProperties.put(key, value);
            return this;
        }

        /** A setting of the dead-letter producer, e.g. {@code max.block.ms}; connection settings come from the consumer's. */
        public Builder producerProperty(String key, Object value) {
            producerProperties.put(key, value);
            return this;
        }

        public Builder bootstrapServers(String servers) {
            return consumerProperty(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, servers);
        }

        public Builder groupId(String groupId) {
            return consumerProperty(ConsumerConfig.GROUP_ID_CONFIG, groupId);
        }

        /** The topics to consume; these or a {@link #topicPattern(Pattern)} are required. */
        public Builder topics(String... names) {
            this.topics = List.of(names);
            return this;
        }

        /**
         * Consumes every topic whose whole name matches {@code pattern} (internal topics excepted) instead of named
         * {@link #topics}, including topics created while the engine runs. The consumer matches the pattern against
         * its view of the cluster's topics, refreshed every {@code metadata.max.age.ms} (a consumer property, default
         * 5 minutes): that decides how soon a new topic is read (then the group rebalances to hand out its partitions).
         * A bounded run ({@link #untilEnd}) reads the topics that match when it starts.
         */
        public Builder topicPattern(Pattern pattern) {
            this.topicPattern = Objects.requireNonNull(pattern, "pattern");
            return this;
        }

        /** Default {@link Ordering#KEY}. */
        public Builder ordering(Ordering ordering) {
            this.ordering = Objects.requireNonNull(ordering, "ordering");
            return this;
        }

        /** A sub-partitioner that replaces {@link #ordering(Ordering)}: records with equal lane numbers run in order. */
        public Builder laneFunction(LaneFunction function) {
            this.laneFunction = Objects.requireNonNull(function, "laneFunction");
            return this;
        }

        /** Records processed at the same time, over all partitions; the number of worker threads. Default 64. */
        public Builder concurrency(int concurrency) {
            this.concurrency = concurrency;
            return this;
        }

        /** Lanes each partition is split into for KEY, UNORDERED and lane-function ordering. Default 256. */
        public Builder lanesPerPartition(int lanes) {
            this.lanesPerPartition = lanes;
            return this;
        }

        /** Bytes (keys, values, headers) of records queued and in flight, over all partitions. Default 256 MiB. */
        public Builder memoryBudgetBytes(long bytes) {
            this.memoryBudgetBytes = bytes;
            return this;
        }

        /**
         * How many offsets past the oldest unfinished record of a partition may be dispatched; a power of two. It bounds
         * the completion map so it always fits the commit metadata. Default 16384, the most that fits.
         */
        public Builder window(int offsets) {
            this.window = offsets;
            return this;
        }

        /** How often completed offsets are committed, asynchronously. Default 1 s. */
        public Builder commitInterval(Duration interval) {
            this.commitInterval = interval;
            return this;
        }

        /** How long close and revocation wait for records in flight before committing. Default 30 s. */
        public Builder drainTimeout(Duration timeout) {
            this.drainTimeout = timeout;
            return this;
        }

        /** Longest one attempt at a record may take before it counts as failed. Default 1 min. */
        public Builder processingTimeout(Duration timeout) {
            this.processingTimeout = timeout;
            return this;
        }

        /** Attempts per record before the failure outcome applies (1 = no retry). Default 3. */
        public Builder maxAttempts(int attempts) {
            this.maxAttempts = attempts;
            return this;
        }

        /** Backoff before the first retry, doubling up to {@code max}, with ±20% jitter. Default 100 ms to 10 s. */
        public Builder backoff(Duration initial, Duration max) {
            this.initialBackoff = initial;
            this.maxBackoff = max;
            return this;
        }

        /** Default {@link FailureOutcome#STOP}; {@link #deadLetterTopic(String)} switches it to DEAD_LETTER. */
        public Builder failureOutcome(FailureOutcome outcome) {
            this.failureOutcome = Objects.requireNonNull(outcome, "failureOutcome");
            return this;
        }

        /** Sends records that failed every attempt to {@code topic} (which must exist). */
        public Builder deadLetterTopic(String topic) {
            this.deadLetterTopic = topic;
            this.failureOutcome = FailureOutcome.DEAD_LETTER;
            return this;
        }

        /**
         * How long publishing one dead letter may wait for the brokers, for the topic's metadata and then for the
         * acknowledgement (the producer's {@code max.block.ms} and {@code delivery.timeout.ms}, unless the producer
         * properties set them), before the engine stops on that record. Default 2 minutes: a broker restart is ridden
         * out. At least 15 s (the producer's request timeout, 10 s, must fit in it).
         */
        public Builder deadLetterRetryFor(Duration retryFor) {
            this.deadLetterRetryFor = Objects.requireNonNull(retryFor, "deadLetterRetryFor");
            return this;
        }

        /** Where to start in partitions without a committed offset. Default {@link StartPosition#EARLIEST}. */
        public Builder startPosition(StartPosition position) {
            this.startPosition = Objects.requireNonNull(position, "startPosition");
            return this;
        }

        /** Default {@link OutOfRangePolicy#FAIL}. */
        public Builder outOfRangePolicy(OutOfRangePolicy policy) {
            this.outOfRangePolicy = Objects.requireNonNull(policy, "outOfRangePolicy");
            return this;
        }

        /**
         * How long a partition's watermark may stand still with records pending before the partition is reported
         * stuck (metrics, {@link Engine#partitions()}). Default 2 min.
         */
        public Builder stuckThreshold(Duration threshold) {
            this.stuckThreshold = threshold;
            return this;
        }

        /** Where the engine's meters go. Default Micrometer's global registry (a no-op until one is added). */
        public Builder meterRegistry(MeterRegistry registry) {
            this.meterRegistry = Objects.requireNonNull(registry, "meterRegistry");
            return this;
        }

        /**
         * Runs blocking handlers on virtual threads, one per worker, so {@code concurrency} can be in the thousands
         * for I/O-bound handlers. Needs JDK 24 or newer, where virtual threads no longer pin their carrier inside
         * {@code synchronized} blocks (JEP 491); on older JDKs a blocked virtual thread could stall the engine.
         * Default false: platform threads.
         */
        public Builder virtualThreads(boolean enabled) {
            this.virtualThreads = enabled;
            return this;
        }

        /**
         * Partitions the group never committed start at the first record whose timestamp is at or after
         * {@code timestamp} (instead of {@link #startPosition}), or at the log end when no record is that recent.
         */
        public Builder startFrom(Instant timestamp) {
            return startFrom(timestamp, TimestampStart.UNCOMMITTED);
        }

        /** Starts by record time; {@code scope} says whether committed partitions move too ({@link TimestampStart}). */
        public Builder startFrom(Instant timestamp, TimestampStart scope) {
            this.startTimestamp = Objects.requireNonNull(timestamp, "timestamp");
            this.timestampStart = Objects.requireNonNull(scope, "scope");
            return this;
        }

        /**
         * A bounded run, for backfills and catch-up jobs: the end offsets of every partition of the topics are read
         * when the engine starts, records at or past them are not processed, and once every partition is done up to
         * its end (the ones of other instances of the group by their committed offsets) the engine drains, commits
         * and stops by itself ({@link Health#STOPPED}). Partitions created after the start (topics that come to match a
         * {@link #topicPattern} included) are not read. Default off.
         */
        public Builder untilEnd(boolean enabled) {
            this.untilEnd = enabled;
            return this;
        }

        /**
         * Limits reading to {@code bytesPerSecond} on average (keys, values and headers of the records fetched), so
         * that reading a big topic from the beginning does not starve the brokers' other clients. Partitions are
         * paused while the run is ahead of the rate, and fetch sizes shrink to a fraction of a second's worth, so the
         * consumer keeps polling and stays in its group. At least 1 KiB/s; default 0, no limit.
         */
        public Builder maxReadBytesPerSecond(long bytesPerSecond) {
            this.maxReadBytesPerSecond = bytesPerSecond;
            return this;
        }

        /**
         * The step that makes progress true and fences members that lost their partitions (see {@link CommitPoint}).
         * Default: {@link CommitPoint#sourceGroup()}, the source consumer group's offset commit.
         */
        public Builder commitPoint(CommitPoint.Factory factory) {
            this.commitPoint = Objects.requireNonNull(factory, "commitPoint");
            return this;
        }

        public EngineConfig build() {
            require(consumerProperties.get(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG) != null,
                    "bootstrap.servers is required: where the Kafka brokers are, e.g. broker1:9092");
            require(consumerProperties.get(ConsumerConfig.GROUP_ID_CONFIG) != null,
                    "group.id is required: the consumer group whose committed offsets record progress");
            require(!topics.isEmpty() || topicPattern != null,
                    "topics is required: name at least one topic to consume, or give a topic pattern");
            require(topics.isEmpty() || topicPattern == null, "name topics or give a topic pattern, not both");
            require(concurrency >= 1 && concurrency <= 10_000, "concurrency must be 1..10000, not " + concurrency);
            require(lanesPerPartition >= 1 && lanesPerPartition <= 65_536,
                    "lanes per partition must be 1..65536, not " + lanesPerPartition);
            require(memoryBudgetBytes >= 1024 * 1024, "the memory budget must be at least 1 MiB, not " + memoryBudgetBytes);
            int maxWindow = maxWindow();
            require(window >= 64 && Integer.bitCount(window) == 1 && window <= maxWindow,
                    "window must be a power of two from 64 to " + maxWindow + " (what the commit metadata can hold), not "
                            + window);
            require(positive(commitInterval), "commit interval must be positive");
            require(positive(drainTimeout), "drain timeout must be positive");
            require(positive(processingTimeout), "processing timeout must be positive");
            require(positive(stuckThreshold), "stuck threshold must be positive");
            require(!virtualThreads || Runtime.version().feature() >= 24, "virtual threads need JDK 24 or newer (this is "
                    + "JDK " + Runtime.version().feature() + ", where they pin their carrier in synchronized code); run "
                    + "on a newer JDK or leave virtualThreads off");
            require(maxAttempts >= 1, "max attempts must be at least 1, not " + maxAttempts);
            require(!initialBackoff.isNegative() && maxBackoff.compareTo(initialBackoff) >= 0,
                    "backoff must satisfy 0 <= initial <= max");
            require(failureOutcome != FailureOutcome.DEAD_LETTER || (deadLetterTopic != null && !deadLetterTopic.isBlank()),
                    "the DEAD_LETTER outcome needs a dead-letter topic");
            require(deadLetterRetryFor.compareTo(Duration.ofSeconds(15)) >= 0,
                    "the dead-letter retry window must be at least 15 s, not " + deadLetterRetryFor);
            require(deadLetterTopic == null || !topics.contains(deadLetterTopic),
                    "the dead-letter topic must not be one of the consumed topics");
            require(deadLetterTopic == null || topicPattern == null || !topicPattern.matcher(deadLetterTopic).matches(),
                    "the dead-letter topic must not match the topic pattern: the engine would consume its own dead "
                            + "letters");
            require(maxReadBytesPerSecond == 0 || maxReadBytesPerSecond >= 1024, "the read rate limit must be at least "
                    + "1024 bytes/s (or 0 for no limit), not " + maxReadBytesPerSecond);
            require(startTimestamp == null || !startTimestamp.isAfter(Instant.now().plus(Duration.ofMinutes(1))),
                    "the start timestamp " + startTimestamp + " is in the future, so no record is that recent; to "
                            + "start at the end of the log use startPosition(LATEST)");
            require(startTimestamp == null || !startTimestamp.isBefore(Instant.EPOCH),
                    "the start timestamp " + startTimestamp + " is before 1970, where Kafka timestamps begin");
            for (String key : List.of(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                    ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG)) {
                require(!consumerProperties.containsKey(key), key + " is managed by the engine; remove it (use "
                        + "startPosition / outOfRangePolicy for offsets, and pass deserializers to Engine.start)");
            }
            return new EngineConfig(this);
        }

        private static int maxWindow() {
            int budget = METADATA_LIMIT - METADATA_RESERVE;
            int window = 64;
            while (CompletionMap.maxEncodedLength(window * 2) <= budget) {
                window *= 2;
            }
            return window;
        }

        private static boolean positive(Duration d) {
            return d != null && !d.isNegative() && !d.isZero();
        }

        private static void require(boolean condition, String message) {
            if (!condition) {
                throw new IllegalArgumentException(message);
            }
        }
    }
}
