package io.sluice.merge;

import io.sluice.core.commit.TransactionSpan;
import io.sluice.merge.order.EventTime;
import io.sluice.merge.state.StateCodec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;
import org.apache.kafka.clients.CommonClientConfigs;

/**
 * What one merge reads, where it writes, and in which order. Immutable; built and checked by {@link Builder}.
 *
 * <p>The name ties a merge's instances and restarts together: the group in the target cluster that shares the output
 * partitions among instances ({@link #ownersGroup}), the transactional IDs that fence a frozen instance and the group
 * that holds the committed positions ({@link #progressGroup}) are made from it.
 */
public final class MergeConfig {

    /** How the groups and transactional IDs of every merge begin. */
    public static final String GROUP_PREFIX = "sluice-merge.";

    private static final Pattern NAME = Pattern.compile("[a-zA-Z0-9._-]+");

    private final String name;
    private final List<MergeInput> inputs;
    private final Map<String, Object> target;
    private final String outputTopic;
    private final EventTime orderBy;
    private final LatePolicy late;
    private final Optional<String> lateTopic;
    private final Optional<String> deadLetterTopic;
    private final Duration maxWait;
    private final Duration holdBack;
    private final Duration commitInterval;
    private final long budgetBytes;
    private final int workers;
    private final Optional<Short> replicationFactor;
    private final boolean untilEnd;
    private final MergeDelivery delivery;

    private MergeConfig(Builder b) {
        this.name = b.name;
        this.inputs = List.copyOf(b.inputs);
        this.target = Map.copyOf(b.target);
        this.outputTopic = b.outputTopic;
        this.orderBy = b.orderBy;
        this.late = b.late;
        this.lateTopic = b.lateTopic;
        this.deadLetterTopic = b.deadLetterTopic;
        this.maxWait = b.maxWait;
        this.holdBack = b.holdBack;
        this.commitInterval = b.commitInterval;
        this.budgetBytes = b.budgetBytes;
        this.workers = b.workers;
        this.replicationFactor = b.replicationFactor;
        this.untilEnd = b.untilEnd;
        this.delivery = b.delivery;
    }

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        Builder b = new Builder().name(name).targetProperties(target).outputTopic(outputTopic).orderBy(orderBy)
                .late(late, lateTopic.orElse(null)).maxWait(maxWait).holdBack(holdBack).commitInterval(commitInterval)
                .budgetBytes(budgetBytes).workers(workers).untilEnd(untilEnd).delivery(delivery);
        inputs.forEach(b::input);
        b.deadLetterTopic = deadLetterTopic;
        b.replicationFactor = replicationFactor;
        return b;
    }

    public String name() {
        return name;
    }

    /** In the configured order: ties of event time go to the earlier input. */
    public List<MergeInput> inputs() {
        return inputs;
    }

    /** Client settings of the target cluster (connection, security, producer settings). */
    public Map<String, Object> targetProperties() {
        return target;
    }

    public String outputTopic() {
        return outputTopic;
    }

    public EventTime orderBy() {
        return orderBy;
    }

    public LatePolicy late() {
        return late;
    }

    /** Where late records go under {@link LatePolicy#SIDE_TOPIC}. */
    public Optional<String> lateTopic() {
        return lateTopic;
    }

    /** Where records without a usable event time go, with the reason; without it such a record stops the merge. */
    public Optional<String> deadLetterTopic() {
        return deadLetterTopic;
    }

    /** How long an input with nothing read, not at its end, may hold the merge before it goes on without it. */
    public Duration maxWait() {
        return maxWait;
    }

    /**
     * How far behind an input's confirmed end the merge stays with records of the inputs that have them: a record is
     * emitted past an input at its end only when its event time is that much older than the moment the end was
     * confirmed, so that a record the input's producer sent just before (not yet in its log) is not late.
     */
    public Duration holdBack() {
        return holdBack;
    }

    public Duration commitInterval() {
        return commitInterval;
    }

    /** Memory for records read but not yet merged, shared by every input partition; a full share pauses its input. */
    public long budgetBytes() {
        return budgetBytes;
    }

    /** Threads that merge; each output partition is merged by one of them. */
    public int workers() {
        return workers;
    }

    /** For the output topic when the merge creates it; empty: the target cluster's default. */
    public Optional<Short> replicationFactor() {
        return replicationFactor;
    }

    /** Stop once every input partition is at its end and merged, instead of running on. */
    public boolean untilEnd() {
        return untilEnd;
    }

    /** Exactly once (the default) or at least once: how the output is written and the positions committed. */
    public MergeDelivery delivery() {
        return delivery;
    }

    /** The group in the target that shares output partitions among instances; its members never read. */
    public String ownersGroup() {
        return GROUP_PREFIX + name + ".owners";
    }

    /** The group in the target whose offsets hold each output partition's committed state; it has no members. */
    public String progressGroup() {
        return GROUP_PREFIX + name;
    }

    /**
     * Where each output partition's committed state is kept: the progress group under exactly once (written in the
     * partition's transaction), the owners group under at least once (committed by the member that owns the
     * partition, so the group coordinator refuses it from a member that lost the partition).
     */
    public String stateGroup() {
        return delivery == MergeDelivery.EXACTLY_ONCE ? progressGroup() : ownersGroup();
    }

    public String transactionalIdPrefix() {
        return GROUP_PREFIX + name;
    }

    /** How the committed state is written and checked against this configuration. */
    public StateCodec stateCodec() {
        return new StateCodec(inputs.stream().map(MergeInput::identity).toList(), orderBy.describe());
    }

    /** Builds a {@link MergeConfig}; {@link #build} checks every setting and says what to change. */
    public static final class Builder {
        private String name;
        private final List<MergeInput> inputs = new ArrayList<>();
        private final java.util.HashMap<String, Object> target = new java.util.HashMap<>();
        private String outputTopic;
        private EventTime orderBy = EventTime.timestamp();
        private LatePolicy late = LatePolicy.FLAG;
        private Optional<String> lateTopic = Optional.empty();
        private Optional<String> deadLetterTopic = Optional.empty();
        private Duration maxWait = Duration.ofSeconds(30);
        private Duration holdBack = Duration.ofMillis(200);
        private Duration commitInterval = Duration.ofSeconds(1);
        private long budgetBytes = 256L << 20;
        private int workers = Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors()));
        private Optional<Short> replicationFactor = Optional.empty();
        private boolean untilEnd;
        private MergeDelivery delivery = MergeDelivery.EXACTLY_ONCE;

        private Builder() {
        }

        /** Ties the instances and restarts of one merge together; letters, digits, '.', '_' and '-'. */
        public Builder name(String name) {
            this.name = name;
            return this;
        }

        /** Adds an input; the order of the calls is the tie-break order. */
        public Builder input(MergeInput input) {
            inputs.add(Objects.requireNonNull(input, "input"));
            return this;
        }

        public Builder targetProperties(Map<String, ?> properties) {
            target.putAll(properties);
            return this;
        }

        public Builder outputTopic(String topic) {
            this.outputTopic = topic;
            return this;
        }

        public Builder orderBy(EventTime orderBy) {
            this.orderBy = Objects.requireNonNull(orderBy, "orderBy");
            return this;
        }

        /** The late policy; {@code lateTopic} is required for {@link LatePolicy#SIDE_TOPIC} and refused otherwise. */
        public Builder late(LatePolicy policy, String lateTopic) {
            this.late = Objects.requireNonNull(policy, "policy");
            this.lateTopic = Optional.ofNullable(lateTopic);
            return this;
        }

        public Builder deadLetterTopic(String topic) {
            this.deadLetterTopic = Optional.ofNullable(topic);
            return this;
        }

        public Builder maxWait(Duration wait) {
            this.maxWait = Objects.requireNonNull(wait, "wait");
            return this;
        }

        public Builder holdBack(Duration hold) {
            this.holdBack = Objects.requireNonNull(hold, "hold");
            return this;
        }

        public Builder commitInterval(Duration interval) {
            this.commitInterval = Objects.requireNonNull(interval, "interval");
            return this;
        }

        public Builder budgetBytes(long bytes) {
            this.budgetBytes = bytes;
            return this;
        }

        public Builder workers(int workers) {
            this.workers = workers;
            return this;
        }

        public Builder replicationFactor(short factor) {
            this.replicationFactor = Optional.of(factor);
            return this;
        }

        public Builder untilEnd(boolean untilEnd) {
            this.untilEnd = untilEnd;
            return this;
        }

        public Builder delivery(MergeDelivery delivery) {
            this.delivery = Objects.requireNonNull(delivery, "delivery");
            return this;
        }

        public MergeConfig build() {
            require(name != null && NAME.matcher(name).matches(), "merge name '" + name + "' is required and may "
                    + "hold only letters, digits, '.', '_' and '-': it names the merge's groups and transactions");
            require(inputs.size() >= 2, "a merge needs at least two inputs, it has " + inputs.size());
            var names = new HashSet<String>();
            for (MergeInput input : inputs) {
                require(names.add(input.name()), "two inputs are named '" + input.name() + "': names must differ");
            }
            require(target.get(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG) != null,
                    "the output needs bootstrap.servers: where the target cluster is");
            require(outputTopic != null && !outputTopic.isBlank(), "the output topic is required");
            require(late != LatePolicy.SIDE_TOPIC || lateTopic.isPresent(),
                    "late: side-topic needs late-topic, the topic late records go to");
            require(late == LatePolicy.SIDE_TOPIC || lateTopic.isEmpty(),
                    "late-topic is set but late is " + late.name().toLowerCase().replace('_', '-')
                            + ": set late: side-topic, or remove late-topic");
            require(!maxWait.isNegative() && !maxWait.isZero(), "max-wait must be positive");
            require(!holdBack.isNegative(), "hold-back must not be negative");
            require(!commitInterval.isNegative() && !commitInterval.isZero(), "commit-interval must be positive");
            if (delivery == MergeDelivery.EXACTLY_ONCE) {
                TransactionSpan span = TransactionSpan.of(target, "the target's");
                require(span.allows(commitInterval), "commit-interval " + commitInterval.toMillis() + " ms keeps each "
                        + "transaction open that long, and the target cluster aborts one open past the producer's "
                        + "transaction.timeout.ms (" + span.timeout().toMillis() + " ms), so every start would fail at "
                        + "its first commit: give less than " + span.longestOpen().toMillis() + " ms, or "
                        + span.raiseAdvice("transaction.timeout.ms in the target's properties"));
            }
            require(budgetBytes >= 1 << 20, "the memory budget must be at least 1 MiB, it is " + budgetBytes);
            require(workers >= 1, "workers must be at least 1");
            MergeConfig config = new MergeConfig(this);
            int longest = config.stateCodec().longest();
            require(longest <= StateCodec.METADATA_LIMIT, inputs.size() + " inputs make a committed state of up to "
                    + longest + " bytes, above the broker's default offset.metadata.max.bytes ("
                    + StateCodec.METADATA_LIMIT + "): merge fewer inputs at a time");
            return config;
        }

        private static void require(boolean condition, String message) {
            if (!condition) {
                throw new IllegalArgumentException(message);
            }
        }
    }
}
