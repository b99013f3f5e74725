package io.sluice.merge.owners;

import io.sluice.core.ClusterConnection;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Which output partitions this instance merges: a consumer group in the target cluster, subscribed to the output
 * topic, whose members never read (every partition is paused as it is assigned). Kafka's group protocol then shares
 * the output partitions among the merge's instances and moves them when one comes or goes; what keeps a frozen
 * instance from writing after its partitions moved is not this group but the partitions' transactional IDs, which the
 * next owner's claim fences.
 *
 * <p>Under at-least-once delivery the group also keeps each output partition's committed state, as its offsets:
 * {@link #commit} commits them as this member, and the group coordinator refuses a member that is no longer of the
 * current generation (it lost its partitions). A consumer belongs to one thread, so a worker's commit is handed to
 * the group's thread ({@link MemberCommits}), which commits between polls — and while it waits in a callback
 * ({@link #await}) for a worker that commits as it hands a partition over.
 *
 * <p>Threading: its own thread polls the group and runs {@link Ownership}'s callbacks; {@link #stop} and
 * {@link #commit} from any thread; {@link #committed} and {@link #await} on the group's thread (in the callbacks).
 */
public final class OwnersGroup implements Runnable {

    /** What the instance does when partitions come and go; called on the group's thread, in order. */
    public interface Ownership {
        void assigned(Collection<TopicPartition> partitions);

        void revoked(Collection<TopicPartition> partitions);

        void lost(Collection<TopicPartition> partitions);
    }

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final String topic;
    private volatile Ownership ownership;
    private final CompletableFuture<Void> failure = new CompletableFuture<>();
    private final MemberCommits commits;
    private volatile boolean running = true;

    /** {@code memberProperties}: the target's connection plus group timings (session timeout, heartbeat). */
    public OwnersGroup(Map<String, Object> targetProperties, Map<String, Object> memberProperties, String group,
            String topic) {
        Map<String, Object> props = new HashMap<>(ClusterConnection.of(targetProperties));
        props.putAll(memberProperties);
        props.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
        props.putIfAbsent(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG,
                "org.apache.kafka.clients.consumer.CooperativeStickyAssignor");
        this.consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        this.commits = new MemberCommits(consumer, group);
        this.topic = topic;
    }

    /** What this instance does with the partitions it is given; set once, before {@link #run}. */
    public void ownership(Ownership ownership) {
        this.ownership = ownership;
    }

    /** Completes exceptionally when the group cannot go on (a callback failed, the cluster refused the member). */
    public CompletableFuture<Void> failure() {
        return failure;
    }

    public void stop() {
        running = false;
        consumer.wakeup();
    }

    /**
     * Runs a callback; its failure (a claim refused, a committed state that does not fit) ends the group with the
     * callback's own words, not the consumer's "User rebalance callback throws an error".
     */
    private void callback(Runnable body, Collection<TopicPartition> partitions) {
        if (partitions.isEmpty() || failure.isDone()) {
            return;
        }
        try {
            body.run();
        } catch (RuntimeException e) {
            failure.completeExceptionally(e);
            running = false;
        }
    }

    /**
     * The group's committed offsets of {@code partitions} (absent: never committed); on the group's thread, in
     * {@link Ownership#assigned}.
     */
    public Map<TopicPartition, OffsetAndMetadata> committed(Set<TopicPartition> partitions, Duration timeout) {
        return commits.committed(partitions, timeout);
    }

    /**
     * Commits {@code offsets} of partitions this member owns as the group's offsets, and waits for the answer: a
     * {@link org.apache.kafka.clients.consumer.CommitFailedException} when the member lost them (another instance may
     * own them now). From any thread.
     */
    public void commit(Map<TopicPartition, OffsetAndMetadata> offsets, Duration timeout) throws Exception {
        commits.commit(offsets, timeout);
    }

    /**
     * On the group's thread, in a callback: waits up to {@code timeout} for {@code done} (a worker handing a partition
     * over), committing for the workers meanwhile, since the worker's last commit needs this thread.
     */
    public <T> T await(CompletableFuture<T> done, Duration timeout) throws Exception {
        return commits.await(done, timeout);
    }

    @Override
    public void run() {
        commits.bind();
        try {
            consumer.subscribe(List.of(topic), new ConsumerRebalanceListener() {
                @Override
                public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
                    consumer.pause(partitions);
                    callback(() -> ownership.assigned(partitions), partitions);
                }

                @Override
                public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
                    callback(() -> ownership.revoked(partitions), partitions);
                }

                @Override
                public void onPartitionsLost(Collection<TopicPartition> partitions) {
                    callback(() -> ownership.lost(partitions), partitions);
                }
            });
            while (running) {
                try {
                    consumer.poll(Duration.ofMillis(500));
                } catch (WakeupException e) {
                    // stop() or a commit: the loop condition decides
                }
                commits.serveQueued();
            }
        } catch (RuntimeException e) {
            failure.completeExceptionally(e);
        } finally {
            try {
                consumer.close(Duration.ofSeconds(30)); // revokes what it owns: the partitions commit and are released
            } catch (RuntimeException e) {
                failure.completeExceptionally(e);
            }
            commits.end();
        }
    }
}
