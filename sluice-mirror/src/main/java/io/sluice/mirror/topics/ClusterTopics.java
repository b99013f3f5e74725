package io.sluice.mirror.topics;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.InvalidPartitionsException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * One cluster's topics as the mirror sees them: partition counts and the configs {@link TopicConfigRule} copies, and
 * the admin calls that create, grow and alter topics, each bounded by a timeout. Failures are Kafka's exceptions, a
 * cluster that does not answer in time a {@link TimeoutException}.
 *
 * <p>Threading: any thread (the admin client is thread-safe, and this class keeps no state of its own).
 */
public final class ClusterTopics {

    /**
     * A topic's partition count, its copied configs (those set on the topic whose keys the rule copies), and whether
     * it stores each record's append time instead of its timestamp ({@code message.timestamp.type} LogAppendTime, set
     * on it or its brokers' default).
     */
    public record State(int partitions, Map<String, String> configs, boolean appendTime) {
    }

    private final Admin admin;
    private final Duration timeout;

    public ClusterTopics(Admin admin, Duration timeout) {
        this.admin = admin;
        this.timeout = timeout;
    }

    /** The states of those of {@code topics} that exist, by name. */
    public Map<String, State> describe(Collection<String> topics) {
        Map<String, Integer> partitions = new HashMap<>();
        admin.describeTopics(topics).topicNameValues().forEach((name, future) -> {
            try {
                TopicDescription d = get(future);
                partitions.put(name, d.partitions().size());
            } catch (UnknownTopicOrPartitionException e) {
                // absent: the caller decides what a missing topic means
            }
        });
        if (partitions.isEmpty()) {
            return Map.of();
        }
        List<ConfigResource> resources = new ArrayList<>();
        partitions.keySet().forEach(name -> resources.add(new ConfigResource(ConfigResource.Type.TOPIC, name)));
        Map<ConfigResource, Config> configs = get(admin.describeConfigs(resources).all());
        Map<String, State> states = new HashMap<>();
        configs.forEach((resource, config) -> states.put(resource.name(),
                new State(partitions.get(resource.name()), TopicConfigRule.copied(config), appendTime(config))));
        return states;
    }

    private static boolean appendTime(Config config) {
        ConfigEntry type = config.get("message.timestamp.type");
        return type != null && "LogAppendTime".equals(type.value());
    }

    /** Creates {@code topic}; false when it existed already (another instance, or a person, was first). */
    public boolean create(String topic, int partitions, Optional<Short> replicationFactor,
            Map<String, String> configs) {
        try {
            get(admin.createTopics(List.of(new NewTopic(topic, Optional.of(partitions), replicationFactor)
                    .configs(configs))).all());
            return true;
        } catch (TopicExistsException e) {
            return false;
        }
    }

    /** Grows {@code topic} to {@code partitions}, unless someone grew it that far already. */
    public void grow(String topic, int partitions) {
        try {
            get(admin.createPartitions(Map.of(topic, NewPartitions.increaseTo(partitions))).all());
        } catch (InvalidPartitionsException e) {
            State now = describe(List.of(topic)).get(topic);
            if (now == null || now.partitions() < partitions) {
                throw e;
            }
        }
    }

    /**
     * The offsets of the records each of {@code partitions} holds now, from its log start to its end, asked without
     * waiting: the future fails as the admin client's calls fail.
     */
    public CompletionStage<Map<TopicPartition, OffsetRange>> ranges(Collection<TopicPartition> partitions) {
        Map<TopicPartition, OffsetSpec> earliest = new HashMap<>();
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        partitions.forEach(tp -> {
            earliest.put(tp, OffsetSpec.earliest());
            latest.put(tp, OffsetSpec.latest());
        });
        CompletionStage<Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo>> starts =
                admin.listOffsets(earliest).all().toCompletionStage();
        return admin.listOffsets(latest).all().toCompletionStage().thenCombine(starts, (ends, from) -> {
            Map<TopicPartition, OffsetRange> ranges = new HashMap<>();
            ends.forEach((tp, end) -> ranges.put(tp, new OffsetRange(from.get(tp).offset(), end.offset())));
            return ranges;
        });
    }

    /** The offsets a partition holds: from {@code start} (its log start) up to, not including, {@code end}. */
    public record OffsetRange(long start, long end) {
        public long count() {
            return end - start;
        }
    }

    /** Sets {@code set} and removes {@code delete} (back to the cluster's default) on {@code topic}, in one call. */
    public void alter(String topic, Map<String, String> set, Collection<String> delete) {
        List<AlterConfigOp> ops = new ArrayList<>();
        set.forEach((k, v) -> ops.add(new AlterConfigOp(new ConfigEntry(k, v), AlterConfigOp.OpType.SET)));
        delete.forEach(k -> ops.add(new AlterConfigOp(new ConfigEntry(k, null), AlterConfigOp.OpType.DELETE)));
        get(admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.TOPIC, topic), ops)).all());
    }

    private <T> T get(KafkaFuture<T> future) {
        try {
            return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof KafkaException k ? k : new KafkaException(e.getCause());
        } catch (java.util.concurrent.TimeoutException e) {
            throw new TimeoutException("the cluster did not answer within " + timeout.toSeconds() + " s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptException(e);
        }
    }
}
