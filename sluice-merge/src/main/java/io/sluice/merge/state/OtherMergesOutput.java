package io.sluice.merge.state;

import io.sluice.core.ClusterConnection;
import io.sluice.merge.MergeConfig;
import io.sluice.merge.MergeDelivery;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.admin.ListGroupsOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * An output topic that holds committed records while this merge has committed nothing into it, under either delivery:
 * records of another merge (a new merge name into the same output), or of this one whose committed state expired
 * ({@code offsets.retention.minutes} after its last commit). A start from there merges every input record again, beside
 * them: a new user's merge renamed into its old output wrote 600,000 records a second time, and {@code validate} had
 * said the state fits. Exactly once, that is refused; at least once, where a merge killed before its first commit
 * left records of its own, it is said and the merge goes on.
 *
 * <p>Threading: stateless; each call makes and closes its own clients.
 */
public final class OtherMergesOutput {

    private OtherMergesOutput() {
    }

    /** The problem in words; empty when this merge committed into the output before, or the output holds nothing. */
    public static Optional<String> problem(MergeConfig config, Duration timeout) throws Exception {
        try (Admin target = Admin.create(ClusterConnection.of(config.targetProperties()))) {
            if (!CommittedStates.statesIn(target, config.progressGroup(), config, timeout).isEmpty()
                    || !CommittedStates.statesIn(target, config.ownersGroup(), config, timeout).isEmpty()) {
                return Optional.empty();
            }
            if (!holdsCommittedRecords(config, timeout)) {
                return Optional.empty();
            }
            TreeSet<String> others = new TreeSet<>();
            for (GroupListing group : target.listGroups(ListGroupsOptions.forConsumerGroups()).all()
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                String name = group.groupId();
                if (name.startsWith(MergeConfig.GROUP_PREFIX)
                        && !CommittedStates.statesIn(target, name, config, timeout).isEmpty()) {
                    String merge = name.substring(MergeConfig.GROUP_PREFIX.length());
                    others.add("'" + (merge.endsWith(".owners") ? merge.substring(0, merge.length() - 7) : merge)
                            + "'");
                }
            }
            return Optional.of("the output topic '" + config.outputTopic() + "' holds records that merge '"
                    + config.name() + "' did not commit" + (others.isEmpty() ? "" : " (merge " + String.join(", ",
                    others) + " committed into it)") + ", and this merge has committed nothing there yet (or its "
                    + "committed state expired, offsets.retention.minutes after its last commit): it would merge "
                    + "every input record again beside them. Merge into a new output topic, or run the merge under "
                    + "the name that wrote them");
        }
    }

    /** Whether this merge's delivery refuses the start ({@link #problem} found): exactly once refuses. */
    public static boolean refuses(MergeConfig config) {
        return config.delivery() == MergeDelivery.EXACTLY_ONCE;
    }


    /**
     * Whether a read_committed reader finds a record in the output: aborted transactions (a merge killed before its
     * first commit, exactly once) and their markers take offsets but hold none.
     */
    private static boolean holdsCommittedRecords(MergeConfig config, Duration timeout) {
        try (KafkaConsumer<byte[], byte[]> consumer = reader(config)) {
            List<TopicPartition> partitions = consumer.partitionsFor(config.outputTopic(), timeout).stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
            return !holdingRecords(consumer, partitions, timeout, true).isEmpty();
        }
    }

    /**
     * The output partitions among {@code partitions} in which a read_committed reader finds a record; one not read
     * through within {@code timeout} counts as holding records (the safe side for a refusal).
     */
    public static List<TopicPartition> holdingRecords(MergeConfig config, List<TopicPartition> partitions,
            Duration timeout) {
        try (KafkaConsumer<byte[], byte[]> consumer = reader(config)) {
            return holdingRecords(consumer, partitions, timeout, false);
        }
    }

    private static KafkaConsumer<byte[], byte[]> reader(MergeConfig config) {
        Map<String, Object> props = ClusterConnection.of(config.targetProperties());
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false); // asking must not create the output
        return new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    /** As {@link #holdingRecords(MergeConfig, List, Duration)}; {@code firstOnly} stops at the first found. */
    private static List<TopicPartition> holdingRecords(KafkaConsumer<byte[], byte[]> consumer,
            List<TopicPartition> partitions, Duration timeout, boolean firstOnly) {
        Map<TopicPartition, Long> ends = consumer.endOffsets(partitions, timeout);
        Map<TopicPartition, Long> starts = consumer.beginningOffsets(partitions, timeout);
        List<TopicPartition> unread = new ArrayList<>(partitions.stream()
                .filter(p -> ends.get(p) > starts.get(p)).toList());
        List<TopicPartition> holding = new ArrayList<>();
        if (unread.isEmpty()) {
            return holding;
        }
        consumer.assign(unread);
        consumer.seekToBeginning(unread);
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!unread.isEmpty() && System.nanoTime() < deadline) {
            ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(200));
            for (TopicPartition p : records.partitions()) {
                if (unread.remove(p)) {
                    holding.add(p);
                }
            }
            if (firstOnly && !holding.isEmpty()) {
                return holding;
            }
            unread.removeIf(p -> consumer.position(p) >= ends.get(p)); // read through: aborted records and markers
            consumer.assign(unread);
        }
        holding.addAll(unread); // not read through in time: taken as records, the safe side for a refusal
        holding.sort(Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition));
        return holding;
    }
}
