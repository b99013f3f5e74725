package io.sluice.cli.pipeline;

import io.sluice.cli.config.ConfigKey;
import io.sluice.cli.config.Durations;
import io.sluice.cli.config.KeyCatalog;
import io.sluice.cli.config.Sizes;
import io.sluice.cli.config.Types;
import io.sluice.merge.LatePolicy;
import io.sluice.merge.MergeConfig;
import io.sluice.merge.MergeDelivery;
import io.sluice.merge.MergeInput;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * Every key of a merge file, documented once, here; {@code docs/merge-configuration.md} is generated from this class
 * ({@code ./sluice docs --merge}). Each input has a section of its own, {@code input.<name>}, named in
 * {@code merge.inputs} (a family of sections: {@link KeyCatalog#ANY}); the cluster sections are the same
 * {@link ClusterKeys} as a mirror's. Defaults that the merge has are taken from it, not written again.
 *
 * <p>Immutable constants.
 */
public final class MergeKeys {

    private MergeKeys() {
    }

    private static final MergeConfig DEFAULTS = MergeConfig.builder().name("defaults")
            .input(new MergeInput("a", Map.of("bootstrap.servers", "-"), "-"))
            .input(new MergeInput("b", Map.of("bootstrap.servers", "-"), "-"))
            .targetProperties(Map.of("bootstrap.servers", "-")).outputTopic("-").build();

    /** The section of input {@code name}: {@code input.<name>}. */
    public static ClusterKeys input(String name) {
        return ClusterKeys.of("input." + name, "consumer", ConsumerConfig.configDef(), Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, "set it with input.<name>.bootstrap-servers",
                ConsumerConfig.GROUP_ID_CONFIG, "a merge reads its inputs without a group: its positions are "
                        + "committed with the output",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "the merge commits its positions itself",
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "a merge reads read_committed: aborted transactions are never "
                        + "merged",
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "a merge starts at the inputs' beginning, then at its "
                        + "committed positions; a position retention deleted stops it",
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, "a merge copies the bytes as they are",
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, "a merge copies the bytes as they are"),
                "e.g. `client.rack`, `fetch.min.bytes`; the fetch sizes come from `merge.budget` unless given");
    }

    /** The topic of input {@code name}. */
    public static ConfigKey<String> inputTopic(String name) {
        return ConfigKey.required("input." + name + ".topic", Types.STRING,
                "The input's topic. Its partition p is merged into partition p of the output, so every input's "
                        + "topic must have the same partition count.");
    }

    /** The family of input sections, as the catalogue and the reference know it. */
    public static final ClusterKeys INPUT = input(KeyCatalog.ANY);
    public static final ConfigKey<String> INPUT_TOPIC = inputTopic(KeyCatalog.ANY);

    public static final ClusterKeys TARGET = ClusterKeys.of("target", "producer", ProducerConfig.configDef(), Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "set it with target.bootstrap-servers",
            ProducerConfig.TRANSACTIONAL_ID_CONFIG, "the merge's name makes one per output partition (exactly once)",
            ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "always on: a retried send never writes a record twice",
            ProducerConfig.ACKS_CONFIG, "always all: a merged record counts only once every in-sync replica has it",
            ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, "a merge copies the bytes as they are",
            ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, "a merge copies the bytes as they are"),
            "e.g. `compression.type`, `batch.size`; unless given, the merge sets `linger.ms` 10, `batch.size` "
                    + "256 KiB and `buffer.memory` from `merge.budget`");
    public static final ConfigKey<String> OUTPUT_TOPIC = ConfigKey.required("target.topic", Types.STRING,
            "The output topic. Created with the inputs' partition count when missing; an existing one must have "
                    + "that count and `message.timestamp.type` CreateTime.");

    public static final ConfigKey<String> NAME = ConfigKey.required("merge.name", Types.STRING,
            "The merge's name, the same for all its instances and restarts (letters, digits, `.`, `_`, `-`): "
                    + "instances with the same name share the output partitions (the target's group "
                    + "`sluice-merge.<name>.owners`), and the target keeps the committed positions under it (the "
                    + "group and transactional IDs `sluice-merge.<name>`). A new name starts from the beginning, into an "
                    + "output of its own: an output that holds another merge's records is refused (exactly once).");
    public static final ConfigKey<List<String>> INPUTS = ConfigKey.required("merge.inputs", Types.LIST,
            "The inputs' names, in tie-break order: of records with the same event time, the earlier input's go "
                    + "first. Each has its section `input.<name>` (lower-case letters, digits and `-`). At least "
                    + "two; the names and order must stay as long as the merge lives (its positions are kept by "
                    + "input).");
    public static final ConfigKey<String> ORDER_BY = ConfigKey.withDefault("merge.order-by", Types.STRING,
            DEFAULTS.orderBy().describe(),
            "The event time the output is sorted by: `timestamp` (the records' timestamps) or `value.<field>` (a "
                    + "field of the values, e.g. `value.event.time`, holding epoch milliseconds or ISO-8601 text; of "
                    + "JSON values, or of Avro values with `value-format` and `value-schema`).");
    public static final ConfigKey<String> VALUE_FORMAT = ConfigKey.withDefault("merge.value-format",
            Types.oneOf(List.of("json", "avro", "confluent-avro")), "json",
            "How the values hold the `order-by` field: `json`, `avro` (Avro binary) or `confluent-avro` (Avro after "
                    + "the Confluent framing: a zero byte and a four-byte schema ID). Avro needs `value-schema`.");
    public static final ConfigKey<String> VALUE_SCHEMA = ConfigKey.optional("merge.value-schema", Types.STRING,
            "The Avro schema (.avsc) the values were written with, for `value-format: avro` or `confluent-avro`; "
                    + "the `order-by` field is checked against it before the merge starts. A relative path is from "
                    + "the file's folder.");
    public static final ConfigKey<LatePolicy> LATE = ConfigKey.withDefault("merge.late",
            Types.choice(LatePolicy.class), Types.name(DEFAULTS.late()),
            "What happens to a late record (its event time below what was already emitted, docs/merge.md): "
                    + "`flag` emits it where it arrives with the header `sluice.merge.late`; `side-topic` writes it "
                    + "to `late-topic` instead, in the same transaction; `stop` stops the merge, naming it.");
    public static final ConfigKey<String> LATE_TOPIC = ConfigKey.optional("merge.late-topic", Types.STRING,
            "Where late records go under `late: side-topic` (required then, refused otherwise); created in the "
                    + "target when missing.");
    public static final ConfigKey<String> DEAD_LETTER_TOPIC = ConfigKey.optional("merge.dead-letter-topic",
            Types.STRING,
            "Where records without a usable event time go, and those the output topic would refuse (without their "
                    + "value: a timestamp outside what it takes, no key for a compacted output, too large), with the "
                    + "reason in the header `sluice.merge.reason`; created in the target when missing. Without it, "
                    + "such a record stops the merge.");
    public static final ConfigKey<MergeDelivery> DELIVERY = ConfigKey.withDefault("merge.delivery",
            Types.choice(MergeDelivery.class), Types.name(DEFAULTS.delivery()),
            "`exactly-once`: each output partition's records and the positions they came from commit in one "
                    + "transaction, so read_committed readers see every input record once, in merge order, whatever "
                    + "crashes; an instance that lost its partitions is fenced. `at-least-once`: records are written "
                    + "at once by an idempotent producer and the positions committed (by the owners group's member, "
                    + "refused to one that lost the partition) after every record below them is acknowledged; a "
                    + "restart writes the records since the last commit again, in the same order (a repeated "
                    + "window). A frozen instance's records are not fenced, only its commits (docs/merge.md). Keep it "
                    + "for the merge's life: a merge under the other delivery is refused.");
    public static final ConfigKey<Duration> MAX_WAIT = ConfigKey.withDefault("merge.max-wait",
            Types.duration(Duration.ofMillis(1)), Durations.format(DEFAULTS.maxWait()),
            "How long an input with nothing read and no confirmed end (its cluster unreachable, say) may hold the "
                    + "merge before it goes on without it; what that input sends later below the merged position is "
                    + "late.");
    public static final ConfigKey<Duration> HOLD_BACK = ConfigKey.withDefault("merge.hold-back",
            Types.duration(Duration.ZERO), Durations.format(DEFAULTS.holdBack()),
            "How far behind the moment an input's end was confirmed a record of the other inputs must be to pass "
                    + "that input: a live input's producer may have sent records just before that were not in its "
                    + "log yet, and would be late. Live output waits about this long plus the half second between "
                    + "confirmations; records older than that (a backfill) never wait. 0 still holds records newer "
                    + "than the confirmation.");
    public static final ConfigKey<Duration> SESSION_TIMEOUT = ConfigKey.withDefault("merge.session-timeout",
            Types.duration(Duration.ofMillis(1)), "45s",
            "How long an instance may go unheard (crashed, frozen, cut off) before the other instances of this merge "
                    + "take its output partitions over; heartbeats go at a third of it (at most every 3 s). Lower "
                    + "hands over sooner, at the risk of a rebalance on a long pause; the brokers' "
                    + "`group.min.session.timeout.ms` (6 s by default) is the least they accept.");
    public static final ConfigKey<Duration> COMMIT_INTERVAL = ConfigKey.withDefault("merge.commit-interval",
            Types.duration(Duration.ofMillis(1)), Durations.format(DEFAULTS.commitInterval()),
            "How often each output partition commits what it merged, with the inputs' positions (exactly once: in "
                    + "one transaction, and read_committed readers see the records then; at least once: what a "
                    + "restart may write again). Exactly once, less than half the target producers' "
                    + "transaction.timeout.ms (60 s unless `target.properties` sets it): the target aborts a "
                    + "transaction open longer.");
    public static final ConfigKey<Long> BUDGET = ConfigKey.withDefault("merge.budget", Types.size(1L << 20),
            Sizes.format(DEFAULTS.budgetBytes()),
            "Memory for records read but not merged yet, shared by every input partition this instance reads: an "
                    + "input partition at its share is paused (an input running ahead waits for the others).");
    public static final ConfigKey<Integer> WORKERS = ConfigKey.computed("merge.workers", Types.integer(1, 1024),
            "the number of processors, at most 4",
            "Threads that merge; each output partition is merged by one of them.");
    public static final ConfigKey<Integer> REPLICATION_FACTOR = ConfigKey.optional("merge.replication-factor",
            Types.integer(1, Short.MAX_VALUE),
            "The replication factor of the topics the merge creates (output, late and dead-letter topics). Without "
                    + "it, the target's default.");

    public static final KeyCatalog CATALOG = new KeyCatalog(KeyCatalog.concat(
            List.of(new KeyCatalog.Section("", "A merge file"),
                    new KeyCatalog.Section("merge", "its name, inputs, order, and what happens to late records"),
                    new KeyCatalog.Section("input", "one section per input, named in `merge.inputs`")),
            INPUT.sections("an input: its cluster and topic"),
            TARGET.sections("the cluster and topic the merged records go to"),
            List.of(new KeyCatalog.Section("metrics", "the HTTP endpoint of a running merge"))),
            KeyCatalog.concat(
                    List.of(NAME, INPUTS, ORDER_BY, VALUE_FORMAT, VALUE_SCHEMA, LATE, LATE_TOPIC, DEAD_LETTER_TOPIC, DELIVERY, MAX_WAIT, HOLD_BACK,
                            SESSION_TIMEOUT, COMMIT_INTERVAL,
                            BUDGET, WORKERS, REPLICATION_FACTOR),
                    List.of(INPUT.bootstrapServers(), INPUT_TOPIC), INPUT.connectionKeys(),
                    List.of(INPUT.properties(), TARGET.bootstrapServers(), OUTPUT_TOPIC), TARGET.connectionKeys(),
                    List.of(TARGET.properties(), PipelineKeys.METRICS_PORT, PipelineKeys.METRICS_ADDRESS)));
}
