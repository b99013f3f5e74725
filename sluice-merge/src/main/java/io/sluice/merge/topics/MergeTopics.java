package io.sluice.merge.topics;

import io.sluice.core.ClusterConnection;
import io.sluice.core.ErrorWords;
import io.sluice.merge.MergeConfig;
import io.sluice.merge.MergeInput;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The topics a merge needs, checked before anything is read: every input with the same partition count (partition p
 * of each merges into partition p of the output), the output created with that count when missing, and refused when
 * its count differs or when the broker stamps its own timestamps (LogAppendTime would make a replay differ from the
 * first run); the late and dead-letter topics created when missing.
 *
 * <p>Threading: one thread, at start.
 */
public final class MergeTopics {

    private static final Logger LOG = LoggerFactory.getLogger("io.sluice.merge");
    private static final long TIMEOUT_SECONDS = 30;
    /** The headers the merge adds to a record (provenance, a late flag, a reason), with room to spare. */
    private static final long HEADER_ROOM = 4096;

    /**
     * The partitions of the output, and of the side topics (0 when not configured), and what the output topic accepts:
     * the largest record batch, how far in the future and in the past a timestamp may be, and whether it is compacted
     * (records without a key refused); the output topic's ID, and the input topics' IDs in the inputs' order (an
     * empty string where a broker gives none); what the late and the dead-letter topics take (null when not
     * configured).
     */
    public record Layout(int partitions, int latePartitions, int deadPartitions, long maxMessageBytes,
            long maxFutureMillis, long maxPastMillis, boolean compacted, String outputTopicId,
            List<String> inputTopicIds, SideTopic late, SideTopic dead) {
    }

    /**
     * What a side topic (late, dead letters) takes: a topic the user made before may take less than the output (a
     * broker's defaults: 1 MiB records, timestamps at most an hour ahead), and a record it refuses failed the whole
     * transaction at every start (a review).
     */
    public record SideTopic(String name, long maxMessageBytes, long maxFutureMillis, long maxPastMillis,
            boolean compacted) {
    }

    /**
     * The inputs' common partition count, the largest record batch any of their topics takes (0: unknown), their
     * topics' IDs with the input each belongs to, and how long and how much of them their topics keep.
     */
    private record InputTopics(int partitions, long largestMessageBytes, Map<Uuid, String> ids, List<String> inOrder,
            Retention retention) {

        /** A refusal when {@code topic} is one of the inputs' own topics (the same ID: the same topic, same cluster). */
        Optional<String> readBy(String role, String topic, Optional<TopicDescription> description) {
            // brokers before 2.8 give every topic the zero ID: nothing can be told from it
            return description.filter(d -> !Uuid.ZERO_UUID.equals(d.topicId())).map(d -> ids.get(d.topicId()))
                    .map(input -> "the " + role + " topic '" + topic
                    + "' is the topic of input '" + input + "' (the same topic in the same cluster): the merge would "
                    + "read what it writes. Merge into another topic.");
        }
    }

    private MergeTopics() {
    }

    public static Layout prepare(MergeConfig config) throws Exception {
        InputTopics inputs = inputTopics(config);
        int partitions = inputs.partitions();
        Admin target = Admin.create(ClusterConnection.of(config.targetProperties()));
        try {
            // what an input took, the output takes, with room for the headers the merge adds; and it keeps what the
            // inputs keep: created with the broker's default (7 days), it deleted a merged backfill of 35-day-old
            // records as soon as they were written, while the merge said "stopped cleanly" (a new user's run)
            Map<String, String> accept = new HashMap<>(inputs.retention().topicConfig());
            accept.put(TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG, "CreateTime");
            // and any timestamp: a broker's default (since Kafka 4.0) refuses one more than an hour ahead of its
            // clock, so a record stamped two hours ahead went to the dead letters today and would be merged in a
            // replay tomorrow; what the merge writes must not depend on when it runs (a review)
            accept.put(TopicConfig.MESSAGE_TIMESTAMP_AFTER_MAX_MS_CONFIG, Long.toString(Long.MAX_VALUE));
            accept.put(TopicConfig.MESSAGE_TIMESTAMP_BEFORE_MAX_MS_CONFIG, Long.toString(Long.MAX_VALUE));
            if (inputs.largestMessageBytes() != 0) {
                accept.put(TopicConfig.MAX_MESSAGE_BYTES_CONFIG, Long.toString(inputs.largestMessageBytes()
                        + HEADER_ROOM));
            }
            refuseInputs(inputs, target, config);
            int output = ensure(target, config.outputTopic(), partitions, config, accept);
            if (output != partitions) {
                throw new IllegalArgumentException(countDiffers(config, output, partitions));
            }
            Config outputConfig = configOf(target, config.outputTopic());
            if (logAppendTime(outputConfig)) {
                throw new IllegalArgumentException(logAppendTimeRefused(config.outputTopic()));
            }
            inputs.retention().shorterIn(config.outputTopic(), longValue(outputConfig,
                    TopicConfig.RETENTION_MS_CONFIG, -1)).ifPresent(warning -> LOG.warn("{}", warning));
            int late = config.lateTopic().isPresent()
                    ? ensure(target, config.lateTopic().get(), partitions, config, accept) : 0;
            int dead = config.deadLetterTopic().isPresent()
                    ? ensure(target, config.deadLetterTopic().get(), partitions, config, accept) : 0;
            SideTopic lateTopic = config.lateTopic().isPresent()
                    ? sideTopic(target, "late", config.lateTopic().get()) : null;
            SideTopic deadTopic = config.deadLetterTopic().isPresent()
                    ? sideTopic(target, "dead-letter", config.deadLetterTopic().get()) : null;
            return new Layout(partitions, late, dead,
                    longValue(outputConfig, TopicConfig.MAX_MESSAGE_BYTES_CONFIG, Long.MAX_VALUE),
                    longValue(outputConfig, TopicConfig.MESSAGE_TIMESTAMP_AFTER_MAX_MS_CONFIG, Long.MAX_VALUE),
                    longValue(outputConfig, TopicConfig.MESSAGE_TIMESTAMP_BEFORE_MAX_MS_CONFIG, Long.MAX_VALUE),
                    compacted(outputConfig),
                    describe(target, config.outputTopic()).map(d -> d.topicId().toString()).orElse(null),
                    inputs.inOrder(), lateTopic, deadTopic);
        } finally {
            closeNow(target);
        }
    }

    /**
     * Closes without waiting for calls still under way: after a question this class stopped waiting for (a cluster
     * that does not answer), a plain close waited for the call's own deadline, another 30 s, before the merge said
     * why it cannot start.
     */
    private static void closeNow(Admin admin) {
        admin.close(java.time.Duration.ZERO);
    }

    /**
     * What {@link #prepare} would refuse, without creating anything (for {@code sluice validate}): the inputs'
     * topics missing or with different partition counts, an existing output with another count or LogAppendTime.
     * Empty when the merge can start.
     *
     * @throws Exception when a cluster does not answer
     */
    public static List<String> problems(MergeConfig config) throws Exception {
        InputTopics inputs;
        try {
            inputs = inputTopics(config);
        } catch (IllegalArgumentException e) {
            return List.of(e.getMessage());
        }
        int partitions = inputs.partitions();
        List<String> problems = new ArrayList<>();
        Admin target = Admin.create(ClusterConnection.of(config.targetProperties()));
        try {
            problems.addAll(topicsReadByTheMerge(inputs, target, config));
            Optional<TopicDescription> output = describe(target, config.outputTopic());
            if (output.isPresent() && output.get().partitions().size() != partitions) {
                problems.add(countDiffers(config, output.get().partitions().size(), partitions));
            }
            if (output.isPresent() && logAppendTime(configOf(target, config.outputTopic()))) {
                problems.add(logAppendTimeRefused(config.outputTopic()));
            }
        } finally {
            closeNow(target);
        }
        return problems;
    }

    private static void refuseInputs(InputTopics inputs, Admin target, MergeConfig config) throws Exception {
        List<String> problems = topicsReadByTheMerge(inputs, target, config);
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(problems.get(0));
        }
    }

    /** The output, late and dead-letter topics that are an input's own topic: what the merge writes, it would read. */
    private static List<String> topicsReadByTheMerge(InputTopics inputs, Admin target, MergeConfig config)
            throws Exception {
        List<String> problems = new ArrayList<>();
        inputs.readBy("output", config.outputTopic(), describe(target, config.outputTopic())).ifPresent(problems::add);
        if (config.lateTopic().isPresent()) {
            String late = config.lateTopic().get();
            inputs.readBy("late", late, describe(target, late)).ifPresent(problems::add);
        }
        if (config.deadLetterTopic().isPresent()) {
            String dead = config.deadLetterTopic().get();
            inputs.readBy("dead-letter", dead, describe(target, dead)).ifPresent(problems::add);
        }
        return problems;
    }

    /** The inputs' common partition count; refused in words when a topic is missing or the counts differ. */
    private static InputTopics inputTopics(MergeConfig config) throws Exception {
        List<String> counts = new ArrayList<>();
        int partitions = -1;
        boolean differ = false;
        long largest = 0;
        Map<Uuid, String> ids = new HashMap<>();
        List<String> inOrder = new ArrayList<>();
        Retention retention = Retention.NONE;
        for (MergeInput input : config.inputs()) {
            Admin admin = Admin.create(ClusterConnection.of(input.clientProperties()));
            try {
                TopicDescription topic = describe(admin, input.topic()).orElseThrow(() ->
                        new IllegalArgumentException("input '" + input.name() + "': topic '" + input.topic()
                                + "' does not exist in its cluster (" + input.clientProperties().get("bootstrap.servers")
                                + ")"));
                if (!Uuid.ZERO_UUID.equals(topic.topicId())) {
                    ids.putIfAbsent(topic.topicId(), input.name());
                }
                inOrder.add(Uuid.ZERO_UUID.equals(topic.topicId()) ? "" : topic.topicId().toString());
                int n = topic.partitions().size();
                counts.add(input.name() + " " + n);
                differ |= partitions >= 0 && n != partitions;
                partitions = Math.max(partitions, n);
                Config topicConfig = configOf(admin, input.topic());
                largest = Math.max(largest, longValue(topicConfig, TopicConfig.MAX_MESSAGE_BYTES_CONFIG, 0));
                retention = retention.and(input.name(), longValue(topicConfig, TopicConfig.RETENTION_MS_CONFIG, -1),
                        longValue(topicConfig, TopicConfig.RETENTION_BYTES_CONFIG, -1));
            } finally {
                closeNow(admin);
            }
        }
        if (differ) {
            throw new IllegalArgumentException("the inputs' topics have different partition counts (" + String.join(
                    ", ", counts) + "): partition p of each input merges into partition p of the output, so they must "
                    + "be equal");
        }
        return new InputTopics(partitions, largest, ids, List.copyOf(inOrder), retention);
    }

    /**
     * Throws, in words, when an input topic's partition count is no longer {@code expected}: one grown while the merge
     * ran, whose new partitions it did not merge. Asked at the end of a bounded run, whose readers' metadata may be
     * older than the growth.
     */
    public static void checkCountsUnchanged(MergeConfig config, int expected) throws Exception {
        for (MergeInput input : config.inputs()) {
            Admin admin = Admin.create(ClusterConnection.of(input.clientProperties()));
            try {
                Optional<TopicDescription> topic;
                try {
                    topic = describe(admin, input.topic());
                } catch (Exception e) {
                    if (e instanceof InterruptedException) {
                        Thread.currentThread().interrupt();
                    }
                    // everything the merge could read is merged: a cluster away at the end does not undo that, but
                    // what cannot be checked is said
                    LOG.warn("input '{}': could not check that topic '{}' still has {} partitions ({}): a partition "
                            + "added while the merge ran would not be merged", input.name(), input.topic(), expected,
                            ErrorWords.of(e));
                    continue;
                }
                if (topic.isPresent() && topic.get().partitions().size() != expected) {
                    throw new IllegalStateException(countChanged(input.name(), input.topic(),
                            topic.get().partitions().size(), expected));
                }
            } finally {
                closeNow(admin);
            }
        }
    }

    /** Why a merge whose input topic {@code topic} has {@code now} partitions, not {@code expected}, cannot go on. */
    public static String countChanged(String input, String topic, int now, int expected) {
        return "input '" + input + "': topic '" + topic + "' has " + now + " partitions now, the merge started with "
                + expected + ": partition p of every input merges into partition p of the output, so the records of "
                + "the partitions added would not be merged. Give every input topic and the output topic the same "
                + "count, then start the merge again (what was merged stays; new partitions are merged from their "
                + "beginning)";
    }

    private static String countDiffers(MergeConfig config, int output, int partitions) {
        return "the output topic '" + config.outputTopic() + "' has " + output + " partitions, the inputs "
                + partitions + ": give the output " + partitions + " partitions, or merge into a new topic (created "
                + "for you)";
    }

    private static int ensure(Admin admin, String topic, int partitions, MergeConfig config,
            Map<String, String> topicConfig) throws Exception {
        Optional<TopicDescription> found = describe(admin, topic);
        if (found.isPresent()) {
            return found.get().partitions().size();
        }
        try {
            admin.createTopics(List.of(new NewTopic(topic, Optional.of(partitions), config.replicationFactor())
                            .configs(topicConfig)))
                    .all().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw e;
            }
        }
        return describe(admin, topic).map(d -> d.partitions().size()).orElse(partitions);
    }

    /**
     * What the side topic {@code name} takes. A compacted dead-letter topic is refused: a dead letter without a key,
     * which any input may hold, would be refused there, with nowhere else to go, at every start; a compacted late topic
     * is taken, its late records without a key set aside as dead letters, as the output's are.
     */
    private static SideTopic sideTopic(Admin admin, String role, String name) throws Exception {
        Config side = configOf(admin, name);
        if (compacted(side) && role.equals("dead-letter")) {
            throw new IllegalArgumentException("the " + role + " topic '" + name + "' is compacted (cleanup.policy "
                    + "compact): it would refuse a record without a key, and the merge would stop at that record at "
                    + "every start. Name a topic that deletes (the merge creates it when the name is free)");
        }
        return new SideTopic(name, longValue(side, TopicConfig.MAX_MESSAGE_BYTES_CONFIG, Long.MAX_VALUE),
                longValue(side, TopicConfig.MESSAGE_TIMESTAMP_AFTER_MAX_MS_CONFIG, Long.MAX_VALUE),
                longValue(side, TopicConfig.MESSAGE_TIMESTAMP_BEFORE_MAX_MS_CONFIG, Long.MAX_VALUE), compacted(side));
    }

    private static Optional<TopicDescription> describe(Admin admin, String topic) throws Exception {
        try {
            return Optional.of(admin.describeTopics(Set.of(topic)).allTopicNames()
                    .get(TIMEOUT_SECONDS, TimeUnit.SECONDS).get(topic));
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                return Optional.empty();
            }
            throw e;
        } catch (TimeoutException e) {
            throw new IllegalStateException("no answer about topic '" + topic + "' within " + TIMEOUT_SECONDS
                    + " s: is the cluster reachable?", e);
        }
    }

    private static Config configOf(Admin admin, String topic) throws Exception {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
        while (true) {
            try {
                return admin.describeConfigs(Set.of(resource)).all().get(TIMEOUT_SECONDS, TimeUnit.SECONDS)
                        .get(resource);
            } catch (ExecutionException e) {
                // a topic created a moment ago may not be known to the broker that answers yet
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException) || System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(100);
            }
        }
    }

    private static boolean compacted(Config config) {
        var entry = config.get(TopicConfig.CLEANUP_POLICY_CONFIG);
        return entry != null && entry.value() != null && entry.value().contains(TopicConfig.CLEANUP_POLICY_COMPACT);
    }

    private static long longValue(Config config, String key, long otherwise) {
        var entry = config.get(key);
        try {
            return entry == null || entry.value() == null ? otherwise : Long.parseLong(entry.value());
        } catch (NumberFormatException e) {
            return otherwise;
        }
    }

    private static boolean logAppendTime(Config config) {
        var type = config.get(TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG);
        return type != null && "LogAppendTime".equals(type.value());
    }

    private static String logAppendTimeRefused(String topic) {
        return "the output topic '" + topic + "' has message.timestamp.type=LogAppendTime: the broker would replace "
                + "the merged records' event times with its own clock, so the output would not be sorted by them and "
                + "a replay would differ. Use CreateTime.";
    }
}
