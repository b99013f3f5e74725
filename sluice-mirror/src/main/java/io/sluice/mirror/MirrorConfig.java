package io.sluice.mirror;

import io.sluice.mirror.copy.TopicNaming;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;
import org.apache.kafka.clients.CommonClientConfigs;
import io.sluice.core.commit.TransactionSpan;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * What one mirror copies, from where to where, and how. Immutable; built and checked by {@link Builder}.
 *
 * <p>The name ties a mirror's instances and restarts together: the source consumer group that shares the partitions,
 * the transactional IDs that fence a frozen instance, and the target group that holds the progress are all made from
 * it ({@link #sourceGroup}, {@link #transactionalIdPrefix}, {@link #progressGroup}).
 */
public final class MirrorConfig {

    /** How the groups and transactional IDs of every mirror begin. */
    public static final String GROUP_PREFIX = "sluice-mirror.";

    private static final Pattern NAME = Pattern.compile("[a-zA-Z0-9._-]+");

    private final String name;
    private final Map<String, Object> source;
    private final Map<String, Object> target;
    private final List<String> topics;
    private final Pattern topicPattern;
    private final TopicNaming naming;
    private final MirrorDelivery delivery;
    private final Pattern groups;
    private final Duration groupSyncInterval;
    private final Duration topicSyncInterval;
    private final Optional<Short> replicationFactor;
    private final Duration commitInterval;
    private final boolean untilEnd;

    private MirrorConfig(Builder b) {
        this.name = b.name;
        this.source = Map.copyOf(b.source);
        this.target = Map.copyOf(b.target);
        this.topics = List.copyOf(b.topics);
        this.topicPattern = b.topicPattern;
        this.naming = b.naming;
        this.delivery = b.delivery;
        this.groups = b.groups;
        this.groupSyncInterval = b.groupSyncInterval;
        this.topicSyncInterval = b.topicSyncInterval;
        this.replicationFactor = b.replicationFactor;
        this.commitInterval = b.commitInterval;
        this.untilEnd = b.untilEnd;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this configuration, to change a setting or two. */
    public Builder toBuilder() {
        Builder b = new Builder().name(name).sourceProperties(source).targetProperties(target).naming(naming)
                .delivery(delivery).groups(groups).groupSyncInterval(groupSyncInterval).commitInterval(commitInterval)
                .untilEnd(untilEnd).topicPattern(topicPattern).topicSyncInterval(topicSyncInterval);
        b.topics = topics;
        b.replicationFactor = replicationFactor;
        return b;
    }

    public String name() {
        return name;
    }

    /** Client settings of the source cluster: connection, security, and any consumer setting. */
    public Map<String, Object> sourceProperties() {
        return source;
    }

    /** Client settings of the target cluster: connection, security, and any producer setting. */
    public Map<String, Object> targetProperties() {
        return target;
    }

    /** The topics to copy; empty when {@link #topicPattern} chooses them. */
    public List<String> topics() {
        return topics;
    }

    public Optional<Pattern> topicPattern() {
        return Optional.ofNullable(topicPattern);
    }

    public TopicNaming naming() {
        return naming;
    }

    public MirrorDelivery delivery() {
        return delivery;
    }

    /** The source consumer groups whose offsets are translated to the target; empty for none. */
    /** Whether {@code topic} is one of the topics this mirror copies (by name or pattern). */
    public boolean selects(String topic) {
        return topicPattern().map(p -> p.matcher(topic).matches()).orElseGet(() -> topics().contains(topic));
    }

    /**
     * Within one cluster, a copy whose name this mirror selects as a source: it would copy its own copies, making a
     * topic of each generation without end (a new user's {@code {topic}-copy} under {@code orders-.*} made
     * {@code orders-a-copy-copy-copy} in 75 s). In words, or empty.
     *
     * @param sourceTopics the topics the cluster has now (a pattern's future matches are not known)
     */
    public Optional<String> copiesItsCopies(java.util.Collection<String> sourceTopics) {
        java.util.Collection<String> candidates = topicPattern().isPresent() ? sourceTopics : topics();
        for (String topic : candidates) {
            String copy = naming().target(topic);
            if (selects(topic) && !copy.equals(topic) && selects(copy)) {
                return Optional.of("the source and the target are the same cluster, and the copy of " + topic + " ("
                        + copy + ") is itself a topic this mirror copies (" + topicPattern().map(p -> "'" + p + "'")
                        .orElse("the topic list") + "): it would copy its own copies, a new topic each time, without "
                        + "end. Name the copies so that the topics to copy do not match them");
            }
        }
        return Optional.empty();
    }

    public Optional<Pattern> groups() {
        return Optional.ofNullable(groups);
    }

    public Duration groupSyncInterval() {
        return groupSyncInterval;
    }

    /** How often the target topics are compared with the source's: new partitions and changed configs follow. */
    public Duration topicSyncInterval() {
        return topicSyncInterval;
    }

    /** The replication factor of the target topics the mirror creates; empty for the target's default. */
    public Optional<Short> replicationFactor() {
        return replicationFactor;
    }

    /** How often each partition's progress is committed (a transaction per partition, exactly once). */
    public Duration commitInterval() {
        return commitInterval;
    }

    /** Stop at the end offsets seen at start (benchmarks, tests, one-off copies) instead of running on. */
    public boolean untilEnd() {
        return untilEnd;
    }

    /** The source consumer group the instances share the partitions in (and commit to, at least once). */
    public String sourceGroup() {
        return GROUP_PREFIX + name;
    }

    /** The target cluster's group whose offsets hold the source offsets copied so far, exactly once. */
    public String progressGroup() {
        return GROUP_PREFIX + name;
    }

    /** The start of the transactional IDs in the target: one per source partition. */
    public String transactionalIdPrefix() {
        return GROUP_PREFIX + name;
    }

    /** Checks and builds a {@link MirrorConfig}. Not thread-safe. */
    public static final class Builder {

        private String name;
        private final Map<String, Object> source = new HashMap<>();
        private final Map<String, Object> target = new HashMap<>();
        private List<String> topics = List.of();
        private Pattern topicPattern;
        private TopicNaming naming = TopicNaming.identity();
        private MirrorDelivery delivery = MirrorDelivery.EXACTLY_ONCE;
        private Pattern groups;
        private Duration groupSyncInterval = Duration.ofSeconds(2);
        private Duration topicSyncInterval = Duration.ofSeconds(30);
        private Optional<Short> replicationFactor = Optional.empty();
        private Duration commitInterval = Duration.ofSeconds(1);
        private boolean untilEnd;

        private Builder() {
        }

        /** The mirror's name: the same for all its instances, different for every mirror. */
        public Builder name(String name) {
            this.name = name;
            return this;
        }

        public Builder sourceProperties(Map<String, ?> properties) {
            source.putAll(properties);
            return this;
        }

        public Builder sourceProperty(String key, Object value) {
            source.put(key, value);
            return this;
        }

        public Builder targetProperties(Map<String, ?> properties) {
            target.putAll(properties);
            return this;
        }

        public Builder targetProperty(String key, Object value) {
            target.put(key, value);
            return this;
        }

        public Builder topics(String... names) {
            this.topics = List.of(names);
            return this;
        }

        public Builder topics(List<String> names) {
            this.topics = List.copyOf(names);
            return this;
        }

        /** Topics whose whole name matches, instead of a list. */
        public Builder topicPattern(Pattern pattern) {
            this.topicPattern = pattern;
            return this;
        }

        public Builder naming(TopicNaming naming) {
            this.naming = Objects.requireNonNull(naming, "naming");
            return this;
        }

        public Builder delivery(MirrorDelivery delivery) {
            this.delivery = Objects.requireNonNull(delivery, "delivery");
            return this;
        }

        /** Translate the committed offsets of the source groups whose whole name matches. */
        public Builder groups(Pattern groups) {
            this.groups = groups;
            return this;
        }

        public Builder groupSyncInterval(Duration interval) {
            this.groupSyncInterval = interval;
            return this;
        }

        public Builder topicSyncInterval(Duration interval) {
            this.topicSyncInterval = interval;
            return this;
        }

        public Builder replicationFactor(short factor) {
            this.replicationFactor = Optional.of(factor);
            return this;
        }

        public Builder commitInterval(Duration interval) {
            this.commitInterval = interval;
            return this;
        }

        public Builder untilEnd(boolean untilEnd) {
            this.untilEnd = untilEnd;
            return this;
        }

        public MirrorConfig build() {
            require(name != null && NAME.matcher(name).matches(), "a mirror needs a name of letters, digits, '.', "
                    + "'_' and '-' (the same on all its instances): '" + name + "' is not one");
            require(source.get(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG) != null,
                    "the source cluster's bootstrap.servers is required");
            require(target.get(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG) != null,
                    "the target cluster's bootstrap.servers is required");
            require(topics.isEmpty() != (topicPattern == null), "give either topics or a topic pattern, not both");
            require(!groupSyncInterval.isNegative() && !groupSyncInterval.isZero(),
                    "the group sync interval must be positive");
            require(topicSyncInterval.toMillis() > 0, "the topic sync interval must be at least a millisecond");
            require(!commitInterval.isNegative() && !commitInterval.isZero(), "the commit interval must be positive");
            if (delivery == MirrorDelivery.EXACTLY_ONCE) {
                // a transaction open past transaction.timeout.ms is aborted by the target and its producer fenced: the
                // mirror restarted, moved by a commit, and was fenced again, without end (a review)
                TransactionSpan span = TransactionSpan.of(target, "the target's");
                require(span.allows(commitInterval), "the commit interval (" + commitInterval.toMillis()
                        + " ms) must be less than half the target producer's "
                        + ProducerConfig.TRANSACTION_TIMEOUT_CONFIG + " (" + span.timeout().toMillis() + " ms): the "
                        + "target aborts a transaction open longer. Commit more often, or "
                        + span.raiseAdvice(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG + " in the target's properties"));
            }
            require(replicationFactor.map(f -> f > 0).orElse(true), "the replication factor must be at least 1");
            return new MirrorConfig(this);
        }

        private static void require(boolean condition, String message) {
            if (!condition) {
                throw new IllegalArgumentException(message);
            }
        }
    }
}
