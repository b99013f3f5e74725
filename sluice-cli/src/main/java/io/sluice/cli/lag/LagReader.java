package io.sluice.cli.lag;

import io.sluice.cli.console.Units;
import io.sluice.cli.status.PrometheusText;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.DescribeLogDirsOptions;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads {@link LagSnapshot}s from the cluster: offsets and the group's commits through the admin client, log sizes
 * from the brokers' log directories (when allowed), the first unconsumed record of each lagging partition through a
 * consumer outside any group, and the completed-records counters of running instances over HTTP.
 *
 * <p>Threading: one thread at a time.
 */
final class LagReader implements AutoCloseable {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    /**
     * How long the partitions' offsets are waited for, all together: a broker answers them in milliseconds, and one
     * that does not within this (cut off from here, hanging) leaves only its partitions unknown, not the report.
     */
    private static final Duration OFFSETS_WAIT = Duration.ofSeconds(10);
    private static final Duration RECORD_WAIT = Duration.ofSeconds(5);
    private static final String COMPLETED = "sluice_records_completed_total";

    private final LagInputs inputs;
    private final Clock clock;
    private final Admin admin;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    /** Why the last snapshot lacks something (log sizes, a metrics endpoint), for the report. */
    private final List<String> notes = new ArrayList<>();

    LagReader(LagInputs inputs, Clock clock) {
        this.inputs = inputs;
        this.clock = clock;
        Map<String, Object> props = new HashMap<>(inputs.clientProperties());
        props.remove(ConsumerConfig.GROUP_ID_CONFIG);
        // a request a broker holds unanswered (cut off from here, hanging) is given up after this and sent to another
        // broker where it can be (a topic's description, the leaders' lookup before the offsets): well within the
        // report's own wait, not the client's default 30 s, which is the whole of it
        props.putIfAbsent(CommonClientConfigs.REQUEST_TIMEOUT_MS_CONFIG, (int) OFFSETS_WAIT.toMillis() / 2);
        this.admin = Admin.create(props);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none");
        props.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 64 * 1024);
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, "sluice-lag");
        this.consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    List<String> notes() {
        return List.copyOf(notes);
    }

    LagSnapshot read() {
        notes.clear();
        Instant at = clock.instant();
        OptionalDouble completed = completedRecords();
        Map<TopicPartition, String> unknown = new HashMap<>();
        List<TopicPartition> partitions = partitions(unknown);
        List<TopicPartition> asked = partitions.stream().filter(tp -> !unknown.containsKey(tp)).toList();
        // both asked before either is waited for: a leader that does not answer costs the wait once
        long deadline = System.nanoTime() + OFFSETS_WAIT.toNanos();
        KafkaFuture<java.util.Collection<Node>> brokers = admin.describeCluster().nodes();
        ListOffsetsResult startAnswers = ask(asked, OffsetSpec.earliest());
        ListOffsetsResult endAnswers = ask(asked, OffsetSpec.latest());
        // the log sizes asked before the offsets are waited for: a broker that does not answer costs the wait once
        Map<Integer, KafkaFuture<Map<String, LogDirDescription>>> logDirs = askLogDirs(brokers, deadline);
        Map<TopicPartition, String> why = new HashMap<>();
        Map<TopicPartition, Long> starts = answered(startAnswers, asked, deadline, why);
        Map<TopicPartition, Long> ends = answered(endAnswers, asked, deadline, why);
        List<TopicPartition> known = new ArrayList<>();
        for (TopicPartition tp : asked) {
            if (starts.containsKey(tp) && ends.containsKey(tp)) {
                known.add(tp);
            } else {
                unknown.put(tp, why.getOrDefault(tp, "no answer about its offsets"));
            }
        }
        Map<TopicPartition, OffsetAndMetadata> committed = committed(partitions);
        rereadEndsBehind(committed, known, ends, deadline);
        Map<TopicPartition, Long> sizes = logSizes(logDirs, known, deadline);
        Map<TopicPartition, Long> next = new HashMap<>();
        for (TopicPartition tp : known) {
            OffsetAndMetadata c = committed.get(tp);
            long from = Math.max(c == null ? -1 : c.offset(), starts.get(tp));
            if (from < ends.get(tp)) {
                next.put(tp, from);
            }
        }
        Map<TopicPartition, long[]> firstRecords = firstUnconsumed(next);
        Map<TopicPartition, LagSnapshot.Reading> readings = new HashMap<>();
        for (TopicPartition tp : known) {
            OffsetAndMetadata c = committed.get(tp);
            long[] first = firstRecords.get(tp);
            readings.put(tp, new LagSnapshot.Reading(starts.get(tp), ends.get(tp), c == null ? -1 : c.offset(),
                    first == null ? -1 : first[0], sizes.getOrDefault(tp, -1L), first == null ? -1 : first[1]));
        }
        return new LagSnapshot(at, readings, Map.copyOf(unknown), retention(), completed);
    }

    private Map<TopicPartition, OffsetAndMetadata> committed(List<TopicPartition> partitions) {
        if (inputs.progress() == null) {
            Map<TopicPartition, OffsetAndMetadata> offsets = get(admin.listConsumerGroupOffsets(inputs.group())
                    .partitionsToOffsetAndMetadata(), "the group's committed offsets");
            if (partitions.stream().noneMatch(offsets::containsKey)) {
                // a misspelt group reads as one that has processed nothing: say which it may be
                notes.add("group " + inputs.group() + (offsets.isEmpty() ? " has no committed offset on this cluster"
                        : " has committed offsets, but none for " + String.join(", ", inputs.topics()))
                        + ": it has not committed yet, or its name is not this one; the lag counts every record");
            }
            return offsets;
        }
        Map<TopicPartition, OffsetAndMetadata> committed = new HashMap<>();
        inputs.progress().committed(new java.util.HashSet<>(partitions))
                .forEach((tp, offset) -> committed.put(tp, new OffsetAndMetadata(offset)));
        return committed;
    }

    /**
     * The topics' partitions, in order; those without a leader (their brokers are down) are put in {@code unknown}
     * with why: nothing would answer for their offsets.
     */
    private List<TopicPartition> partitions(Map<TopicPartition, String> unknown) {
        Map<String, TopicDescription> topics = new HashMap<>();
        List<String> missing = new ArrayList<>();
        for (Map.Entry<String, KafkaFuture<TopicDescription>> topic : admin.describeTopics(inputs.topics())
                .topicNameValues().entrySet()) {
            try {
                topics.put(topic.getKey(), topic.getValue().get(TIMEOUT.toSeconds(), TimeUnit.SECONDS));
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                    throw failed("the topics " + inputs.topics(), e);
                }
                missing.add(topic.getKey());
            } catch (InterruptedException | TimeoutException e) {
                throw failed("the topics " + inputs.topics(), e);
            }
        }
        if (!missing.isEmpty()) {
            Collections.sort(missing);
            throw new IllegalStateException((missing.size() == 1 ? "topic " + missing.get(0) + " does not"
                    : "topics " + String.join(", ", missing) + " do not") + " exist on "
                    + inputs.clientProperties().get("bootstrap.servers") + ": check the topic names");
        }
        List<TopicPartition> all = new ArrayList<>();
        topics.values().forEach(t -> t.partitions().forEach(p -> {
            TopicPartition tp = new TopicPartition(t.name(), p.partition());
            all.add(tp);
            if (p.leader() == null || p.leader().isEmpty()) {
                unknown.put(tp, "no leader (the brokers that hold it are down, or it lost every in-sync replica)");
            }
        }));
        all.sort((a, b) -> a.topic().equals(b.topic()) ? Integer.compare(a.partition(), b.partition())
                : a.topic().compareTo(b.topic()));
        return all;
    }

    /**
     * The ends were read before the commits, so a group that moved in between can have committed past the end read;
     * those partitions' ends are read again, and a commit still past its end is one that does not belong to the
     * partition as it is now (the topic deleted and created again, or records deleted), which the view reports
     * ({@link LagView}) rather than count as no lag.
     */
    private void rereadEndsBehind(Map<TopicPartition, OffsetAndMetadata> committed, List<TopicPartition> known,
            Map<TopicPartition, Long> ends, long deadline) {
        List<TopicPartition> behind = known.stream()
                .filter(tp -> committed.get(tp) != null && committed.get(tp).offset() > ends.get(tp)).toList();
        if (!behind.isEmpty()) {
            Map<TopicPartition, String> why = new HashMap<>();
            ends.putAll(answered(ask(behind, OffsetSpec.latest()), behind, deadline, why));
        }
    }

    /** Asks the offsets {@code spec} of {@code partitions}, read_committed (the end is the last stable offset). */
    private ListOffsetsResult ask(Collection<TopicPartition> partitions, OffsetSpec spec) {
        Map<TopicPartition, OffsetSpec> query = partitions.stream().collect(Collectors.toMap(tp -> tp, tp -> spec));
        return admin.listOffsets(query, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED)
                .timeoutMs((int) OFFSETS_WAIT.toMillis()));
    }

    /**
     * The offsets of those of {@code partitions} answered by {@code deadline} (nanos), each on its own: a partition
     * whose leader does not answer is left out, not the others with it, and {@code why} says why for each left out
     * (no answer in time, or the cluster's own error: a topic deleted since, a permission missing).
     */
    private static Map<TopicPartition, Long> answered(ListOffsetsResult answers, Collection<TopicPartition> partitions,
            long deadline, Map<TopicPartition, String> why) {
        Map<TopicPartition, Long> offsets = new HashMap<>();
        for (TopicPartition tp : partitions) {
            try {
                long left = Math.max(0, deadline - System.nanoTime());
                offsets.put(tp, answers.partitionResult(tp).get(left, TimeUnit.NANOSECONDS).offset());
            } catch (TimeoutException e) {
                why.putIfAbsent(tp, "no answer about its offsets within " + Units.duration(OFFSETS_WAIT)
                        + " (its leader is cut off from here or hangs)");
            } catch (ExecutionException e) {
                Throwable cause = e.getCause() == null ? e : e.getCause();
                why.putIfAbsent(tp, cause instanceof org.apache.kafka.common.errors.TimeoutException
                        ? "no answer about its offsets within " + Units.duration(OFFSETS_WAIT)
                                + " (its leader is cut off from here or hangs)"
                        : "the cluster refused its offsets: " + cause.getMessage());
            } catch (InterruptedException e) {
                throw failed("offsets", e);
            }
        }
        return offsets;
    }

    /** Asks every broker for its log directories; null, with a note, when the brokers cannot be listed by then. */
    private Map<Integer, KafkaFuture<Map<String, LogDirDescription>>> askLogDirs(
            KafkaFuture<java.util.Collection<Node>> brokers, long deadline) {
        List<Integer> ids;
        try {
            ids = brokers.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS).stream().map(Node::id)
                    .collect(Collectors.toList());
        } catch (ExecutionException | TimeoutException e) {
            notes.add("log sizes unavailable (could not list the brokers: " + (e instanceof TimeoutException
                    ? "no answer within " + Units.duration(OFFSETS_WAIT) : e.getCause().getMessage())
                    + "); bytes estimated from sampled records");
            return null;
        } catch (InterruptedException e) {
            throw failed("the brokers", e);
        }
        return admin.describeLogDirs(ids, new DescribeLogDirsOptions().timeoutMs((int) OFFSETS_WAIT.toMillis()))
                .descriptions();
    }

    /**
     * The size of each partition's log on its largest replica, from the brokers that answered by {@code deadline};
     * empty when the brokers do not allow the request.
     */
    private Map<TopicPartition, Long> logSizes(Map<Integer, KafkaFuture<Map<String, LogDirDescription>>> answers,
            Collection<TopicPartition> partitions, long deadline) {
        Set<TopicPartition> wanted = new HashSet<>(partitions);
        Map<TopicPartition, Long> sizes = new HashMap<>();
        if (answers == null) {
            return sizes;
        }
        List<Integer> silent = new ArrayList<>();
        for (Map.Entry<Integer, KafkaFuture<Map<String, LogDirDescription>>> broker : answers.entrySet()) {
            Map<String, LogDirDescription> dirs;
            try {
                dirs = broker.getValue().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (ExecutionException e) {
                if (e.getCause() instanceof org.apache.kafka.common.errors.ClusterAuthorizationException) {
                    notes.add("log sizes unavailable (" + e.getCause().getMessage() + "); bytes estimated from "
                            + "sampled records");
                    return new HashMap<>();
                }
                if (!(e.getCause() instanceof org.apache.kafka.common.errors.TimeoutException)) {
                    notes.add("no log sizes from broker " + broker.getKey() + " (" + e.getCause().getMessage()
                            + "); the sizes are those of the other replicas");
                    continue;
                }
                silent.add(broker.getKey());
                continue;
            } catch (TimeoutException e) {
                silent.add(broker.getKey());
                continue;
            } catch (InterruptedException e) {
                throw failed("log directories", e);
            }
            dirs.values().forEach(dir -> dir.replicaInfos().forEach((tp, replica) -> {
                if (wanted.contains(tp)) {
                    sizes.merge(tp, replica.size(), Math::max);
                }
            }));
        }
        if (!silent.isEmpty()) {
            Collections.sort(silent);
            notes.add("no log sizes from broker" + (silent.size() == 1 ? " " : "s ") + silent.stream()
                    .map(String::valueOf).collect(Collectors.joining(", ")) + " within " + Units.duration(OFFSETS_WAIT)
                    + "; the sizes are those of the other replicas");
        }
        return sizes;
    }

    private Map<String, LagSnapshot.Retention> retention() {
        List<ConfigResource> resources = inputs.topics().stream()
                .map(t -> new ConfigResource(ConfigResource.Type.TOPIC, t)).collect(Collectors.toList());
        Map<String, LagSnapshot.Retention> retention = new HashMap<>();
        get(admin.describeConfigs(resources).all(), "topic configs").forEach((resource, config) -> retention.put(
                resource.name(), new LagSnapshot.Retention(value(config, TopicConfig.CLEANUP_POLICY_CONFIG, "delete")
                        .contains("delete"), Long.parseLong(value(config, TopicConfig.RETENTION_MS_CONFIG, "-1")),
                        Long.parseLong(value(config, TopicConfig.RETENTION_BYTES_CONFIG, "-1")))));
        return retention;
    }

    private static String value(Config config, String key, String otherwise) {
        var entry = config.get(key);
        return entry == null || entry.value() == null ? otherwise : entry.value();
    }

    /** Per partition: the timestamp of the record at {@code next}, and the average size of the records read. */
    private Map<TopicPartition, long[]> firstUnconsumed(Map<TopicPartition, Long> next) {
        Map<TopicPartition, long[]> found = new HashMap<>();
        if (next.isEmpty()) {
            return found;
        }
        consumer.assign(next.keySet());
        next.forEach(consumer::seek);
        long deadline = System.nanoTime() + RECORD_WAIT.toNanos();
        try {
            while (found.size() < next.size() && System.nanoTime() < deadline) {
                Map<TopicPartition, long[]> bytes = new HashMap<>();
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    TopicPartition tp = new TopicPartition(r.topic(), r.partition());
                    if (found.containsKey(tp)) {
                        continue;
                    }
                    long[] sum = bytes.computeIfAbsent(tp, k -> new long[] {r.timestamp(), 0, 0});
                    sum[1] += Math.max(0, r.serializedKeySize()) + Math.max(0, r.serializedValueSize());
                    sum[2]++;
                }
                bytes.forEach((tp, sum) -> found.put(tp, new long[] {sum[0], sum[1] / sum[2]}));
                consumer.pause(found.keySet());
            }
        } catch (org.apache.kafka.common.KafkaException e) {
            notes.add("could not read the oldest unconsumed records: " + e.getMessage());
        } finally {
            consumer.unsubscribe();
        }
        if (found.size() < next.size()) {
            notes.add("no record read within " + Units.duration(RECORD_WAIT) + " at the committed offset of "
                    + next.keySet().stream().filter(tp -> !found.containsKey(tp)).map(String::valueOf).sorted()
                            .collect(Collectors.joining(", ")) + "; their retention is not estimated");
        }
        return found;
    }

    /** The sum of the instances' completed-records counters for the group, or empty when none was asked for. */
    private OptionalDouble completedRecords() {
        if (inputs.metricsUrls().isEmpty()) {
            return OptionalDouble.empty();
        }
        double sum = 0;
        for (URI given : inputs.metricsUrls()) {
            URI url = metricsAt(given);
            String text;
            try {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(10)).build(),
                        HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() != 200) {
                    throw new IllegalStateException("HTTP " + r.statusCode());
                }
                text = r.body();
            } catch (Exception e) {
                notes.add("metrics from " + url + " unavailable (" + e.getMessage() + "); the rate comes from "
                        + "committed offsets");
                return OptionalDouble.empty();
            }
            OptionalDouble count = PrometheusText.sum(text, COMPLETED, Map.of("group", inputs.group()));
            if (count.isEmpty()) {
                notes.add(url + " has no " + COMPLETED + " for group " + inputs.group() + "; the rate comes from "
                        + "committed offsets");
                return OptionalDouble.empty();
            }
            sum += count.getAsDouble();
        }
        return OptionalDouble.of(sum);
    }

    /**
     * The metrics endpoint of an instance given by its address alone: a run says "status page at http://…/, metrics at
     * /metrics", and the status page given as such was read as metrics without the counter (a new user's run).
     */
    static URI metricsAt(URI url) {
        String path = url.getRawPath();
        return path == null || path.isEmpty() || path.equals("/") ? url.resolve("/metrics") : url;
    }

    private static <T> T get(org.apache.kafka.common.KafkaFuture<T> future, String what) {
        try {
            return future.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw failed(what, e);
        } catch (InterruptedException | TimeoutException e) {
            throw failed(what, e);
        }
    }

    private static IllegalStateException failed(String what, Exception e) {
        if (e instanceof InterruptedException) {
            Thread.currentThread().interrupt();
        }
        Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
        String reason = e instanceof TimeoutException ? "no answer within " + Units.duration(TIMEOUT) : cause.getMessage();
        return new IllegalStateException("could not read " + what + ": " + reason, cause);
    }

    @Override
    public void close() {
        consumer.close(org.apache.kafka.clients.consumer.CloseOptions.timeout(Duration.ofSeconds(5)));
        admin.close(Duration.ofSeconds(5));
    }
}
