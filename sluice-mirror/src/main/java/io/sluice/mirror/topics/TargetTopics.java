package io.sluice.mirror.topics;

import io.sluice.mirror.copy.TopicNaming;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * Makes sure each target topic exists with at least as many partitions as its source topic, before any of its
 * partitions is claimed: created with the source's partition count (and the target's default replication, unless
 * told), grown when the source grew.
 *
 * <p>Threading: {@link #ensure} on the engine's consumer thread (in a claim); the cache is safe to read anywhere.
 */
public final class TargetTopics {

    private final Admin source;
    private final Admin target;
    private final TopicNaming naming;
    private final Optional<Short> replicationFactor;
    private final Duration timeout;
    /** Target topics known to have at least this many partitions. */
    private final Map<String, Integer> known = new ConcurrentHashMap<>();

    public TargetTopics(Admin source, Admin target, TopicNaming naming, Optional<Short> replicationFactor,
            Duration timeout) {
        this.source = source;
        this.target = target;
        this.naming = naming;
        this.replicationFactor = replicationFactor;
        this.timeout = timeout;
    }

    /** Creates or grows the target topics of {@code partitions} so that each has its partition. */
    public void ensure(Set<TopicPartition> partitions) {
        Map<String, Integer> needed = new HashMap<>();
        for (TopicPartition tp : partitions) {
            needed.merge(tp.topic(), tp.partition() + 1, Math::max);
        }
        needed.entrySet().removeIf(e -> known.getOrDefault(e.getKey(), 0) >= e.getValue());
        if (needed.isEmpty()) {
            return;
        }
        try {
            Map<String, TopicDescription> sources = source.describeTopics(needed.keySet()).allTopicNames()
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            for (TopicDescription d : sources.values()) {
                ensure(d.name(), Math.max(d.partitions().size(), needed.get(d.name())));
            }
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot prepare the target topics of " + needed.keySet() + ": "
                    + e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("the clusters did not answer within " + timeout + " while preparing the "
                    + "target topics of " + needed.keySet(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while preparing the target topics", e);
        }
    }

    private void ensure(String sourceTopic, int partitions) throws ExecutionException, InterruptedException,
            TimeoutException {
        String name = naming.target(sourceTopic);
        int has = partitionsOf(name);
        if (has == 0) {
            try {
                target.createTopics(List.of(new NewTopic(name, Optional.of(partitions), replicationFactor))).all()
                        .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
                has = partitions;
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof TopicExistsException)) {
                    throw e;
                }
                has = partitionsOf(name); // another instance was first
            }
        }
        if (has < partitions) {
            target.createPartitions(Map.of(name, NewPartitions.increaseTo(partitions))).all()
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            has = partitions;
        }
        known.merge(sourceTopic, has, Math::max);
    }

    /** The target topic's partition count; 0 when it does not exist. */
    private int partitionsOf(String name) throws ExecutionException, InterruptedException, TimeoutException {
        try {
            return target.describeTopics(List.of(name)).allTopicNames().get(timeout.toMillis(), TimeUnit.MILLISECONDS)
                    .get(name).partitions().size();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                return 0;
            }
            throw e;
        }
    }
}
