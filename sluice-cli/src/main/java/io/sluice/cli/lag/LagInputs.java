package io.sluice.cli.lag;

import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;

/**
 * What {@code sluice lag} looks at: a consumer group, its topics, the client settings to reach the brokers (with
 * {@code bootstrap.servers}; secrets are never printed), and optionally the metrics endpoints of running instances,
 * whose completed-records counters give the processing rate. The group's committed offsets are the progress, unless
 * {@code progress} reads it elsewhere (an exactly-once mirror keeps it in the target cluster).
 *
 * @param progress where the progress is, or null for the group's committed offsets
 */
public record LagInputs(String group, List<String> topics, Map<String, Object> clientProperties,
        List<URI> metricsUrls, Progress progress) {

    /** Where a run's progress is kept when not in its group's committed offsets. */
    public interface Progress {
        /** Per partition with progress, the offset before which everything is done. */
        Map<TopicPartition, Long> committed(Set<TopicPartition> partitions);

        /**
         * The client settings of the cluster the progress is in (with {@code bootstrap.servers}), which the command
         * probes before it reads, as it probes the topics' cluster.
         */
        Map<String, Object> clusterProperties();
    }

    /** The group's committed offsets are the progress. */
    public LagInputs(String group, List<String> topics, Map<String, Object> clientProperties, List<URI> metricsUrls) {
        this(group, topics, clientProperties, metricsUrls, null);
    }

    public LagInputs {
        Objects.requireNonNull(group, "group");
        topics = List.copyOf(topics);
        clientProperties = Map.copyOf(clientProperties);
        metricsUrls = List.copyOf(metricsUrls);
        if (group.isBlank()) {
            throw new IllegalArgumentException("the consumer group is required: the group whose lag to show");
        }
        if (topics.isEmpty()) {
            throw new IllegalArgumentException("name at least one topic of the group");
        }
        if (clientProperties.get("bootstrap.servers") == null) {
            throw new IllegalArgumentException("bootstrap.servers is required: where the Kafka brokers are");
        }
    }
}
