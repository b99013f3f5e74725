package io.sluice.audit;

import java.time.Duration;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * What Kafka says when the audit starts: the topic's ID and partitions with their log start and last stable offsets,
 * whether it is compacted, the dead-letter topic's bounds, and the archiver group's committed offsets. The last stable
 * offsets taken here end the default range, so records produced during the audit are not expected.
 *
 * <p>Threading: built by one thread, then immutable.
 */
final class TopicSnapshot {

    /** A partition's first offset and its last stable offset (the end of what read_committed consumers can see). */
    record Bounds(long logStart, long lastStable) {
    }

    final String topicId;
    final SortedMap<Integer, Bounds> partitions;
    final boolean compacted;
    final SortedMap<Integer, Bounds> deadLetterPartitions;
    /** The group's commits by partition; null when no group was given. */
    final Map<Integer, OffsetAndMetadata> commits;

    private TopicSnapshot(String topicId, SortedMap<Integer, Bounds> partitions, boolean compacted,
            SortedMap<Integer, Bounds> deadLetterPartitions, Map<Integer, OffsetAndMetadata> commits) {
        this.topicId = topicId;
        this.partitions = partitions;
        this.compacted = compacted;
        this.deadLetterPartitions = deadLetterPartitions;
        this.commits = commits;
    }

    static TopicSnapshot take(AuditConfig config) throws AuditException {
        Map<String, Object> props = new HashMap<>(config.kafkaProperties());
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) config.timeout().toMillis());
        props.putIfAbsent(AdminClientConfig.CLIENT_ID_CONFIG, "sluice-audit");
        String where = String.valueOf(config.kafkaProperties().get(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG));
        try (Admin admin = Admin.create(props)) {
            Requests requests = new Requests(config.timeout(), where);
            TopicDescription topic = describe(admin, requests, config.topic());
            SortedMap<Integer, Bounds> partitions = bounds(admin, requests, topic);
            SortedMap<Integer, Bounds> deadLetters = new TreeMap<>();
            if (config.deadLetterTopic().isPresent()) {
                deadLetters = bounds(admin, requests, describe(admin, requests, config.deadLetterTopic().get()));
            }
            ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, config.topic());
            Config topicConfig = requests.get(admin.describeConfigs(List.of(resource)).values().get(resource),
                    "describe the configuration of " + config.topic());
            ConfigEntry policy = topicConfig.get(TopicConfig.CLEANUP_POLICY_CONFIG);
            boolean compacted = policy != null && policy.value() != null && policy.value().contains("compact");
            Map<Integer, OffsetAndMetadata> commits = null;
            if (config.groupId().isPresent()) {
                Map<TopicPartition, OffsetAndMetadata> all = requests.get(admin.listConsumerGroupOffsets(
                        config.groupId().get()).partitionsToOffsetAndMetadata(), "read the offsets of group "
                        + config.groupId().get());
                commits = new HashMap<>();
                for (Map.Entry<TopicPartition, OffsetAndMetadata> e : all.entrySet()) {
                    if (e.getKey().topic().equals(config.topic()) && e.getValue() != null) {
                        commits.put(e.getKey().partition(), e.getValue());
                    }
                }
            }
            return new TopicSnapshot(topic.topicId().toString(), Collections.unmodifiableSortedMap(partitions), compacted,
                    Collections.unmodifiableSortedMap(deadLetters), commits);
        }
    }

    private static TopicDescription describe(Admin admin, Requests requests, String topic) throws AuditException {
        return requests.get(admin.describeTopics(List.of(topic)).topicNameValues().get(topic), "describe topic " + topic);
    }

    private static SortedMap<Integer, Bounds> bounds(Admin admin, Requests requests, TopicDescription description)
            throws AuditException {
        String topic = description.name();
        Map<TopicPartition, OffsetSpec> earliest = new HashMap<>();
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        description.partitions().forEach(p -> {
            earliest.put(new TopicPartition(topic, p.partition()), OffsetSpec.earliest());
            latest.put(new TopicPartition(topic, p.partition()), OffsetSpec.latest());
        });
        var starts = requests.get(admin.listOffsets(earliest).all(), "list the log start offsets of " + topic);
        var ends = requests.get(admin.listOffsets(latest, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED)).all(),
                "list the last stable offsets of " + topic);
        SortedMap<Integer, Bounds> bounds = new TreeMap<>();
        starts.forEach((tp, start) -> bounds.put(tp.partition(), new Bounds(start.offset(), ends.get(tp).offset())));
        return bounds;
    }

    /** Waits for admin requests and turns their failures into messages that say what could not be done. */
    private record Requests(Duration timeout, String where) {

        <T> T get(KafkaFuture<T> future, String what) throws AuditException {
            try {
                return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            } catch (ExecutionException e) {
                if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                    throw new AuditException("cannot " + what + ": the topic does not exist on " + where
                            + " (check the name and the bootstrap servers)", e.getCause());
                }
                throw new AuditException("cannot " + what + " on " + where + ": " + e.getCause(), e.getCause());
            } catch (TimeoutException e) {
                throw new AuditException("cannot " + what + ": " + where + " did not answer within " + timeout
                        + " (is the broker reachable, and the security settings right?)", e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AuditException("interrupted while trying to " + what, e);
            }
        }
    }
}
