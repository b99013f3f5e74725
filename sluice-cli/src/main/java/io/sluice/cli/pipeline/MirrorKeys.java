package io.sluice.cli.pipeline;

import io.sluice.cli.config.ConfigKey;
import io.sluice.cli.config.Durations;
import io.sluice.cli.config.KeyCatalog;
import io.sluice.cli.config.Types;
import io.sluice.mirror.MirrorConfig;
import io.sluice.mirror.MirrorDelivery;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * Every key of a mirror file, documented once, here; {@code docs/mirror-configuration.md} is generated from this class
 * ({@code ./sluice docs --mirror}). The cluster sections are the same {@link ClusterKeys} as a pipeline's source.
 * Defaults that the mirror has are taken from it, not written again.
 *
 * <p>Immutable constants.
 */
public final class MirrorKeys {

    private MirrorKeys() {
    }

    private static final MirrorConfig DEFAULTS = MirrorConfig.builder().name("defaults")
            .sourceProperty("bootstrap.servers", "-").targetProperty("bootstrap.servers", "-").topics("-").build();

    public static final ClusterKeys SOURCE = ClusterKeys.of("source", "consumer", ConsumerConfig.configDef(), Map.of(
            ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, "set it with source.bootstrap-servers",
            ConsumerConfig.GROUP_ID_CONFIG, "the mirror's name makes it: sluice-mirror.<name>",
            ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "the mirror commits its progress itself",
            ConsumerConfig.ISOLATION_LEVEL_CONFIG, "a mirror reads read_committed: aborted transactions are never "
                    + "copied",
            ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, "a mirror copies the bytes as they are",
            ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, "a mirror copies the bytes as they are"),
            "e.g. `session.timeout.ms`, `fetch.max.bytes`, `client.rack`");

    public static final ConfigKey<List<String>> TOPICS = ConfigKey.optional("source.topics", Types.LIST,
            "The topics to copy. Give either `topics` or `pattern`.");
    public static final ConfigKey<Pattern> PATTERN = ConfigKey.optional("source.pattern", Types.REGEX,
            "A regular expression that whole topic names must match, instead of `topics`. A matching topic created "
                    + "while the mirror runs is copied too, within `metadata.max.age.ms` (30 s unless set in "
                    + "`source.properties`), its target topic created first.");

    public static final ClusterKeys TARGET = ClusterKeys.of("target", "producer", ProducerConfig.configDef(), Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "set it with target.bootstrap-servers",
            ProducerConfig.TRANSACTIONAL_ID_CONFIG, "the mirror's name makes one per source partition",
            ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "always on: a retried send never writes a copy twice",
            ProducerConfig.ACKS_CONFIG, "always all: a copy counts only once every in-sync replica has it",
            ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, "a mirror copies the bytes as they are",
            ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, "a mirror copies the bytes as they are"),
            "e.g. `linger.ms`, `batch.size`, `compression.type`; the mirror sets `linger.ms` 10 and `batch.size` "
                    + "256KiB unless given");

    public static final ConfigKey<String> NAME = ConfigKey.required("mirror.name", Types.STRING,
            "The mirror's name, the same for all its instances and restarts (letters, digits, `.`, `_`, `-`): "
                    + "instances with the same name share the partitions (the source group `sluice-mirror.<name>`), "
                    + "and the target keeps the progress under it (the group and transactional IDs "
                    + "`sluice-mirror.<name>`). A new name starts from the beginning.");
    public static final ConfigKey<MirrorDelivery> DELIVERY = ConfigKey.withDefault("mirror.delivery",
            Types.choice(MirrorDelivery.class), Types.name(DEFAULTS.delivery()),
            "`exactly-once`: the copies and the source offsets they came from commit in one transaction in the "
                    + "target, so read_committed readers see every source record once, whatever crashes. "
                    + "`at-least-once`: copies are acknowledged, then the source group commits; faster, but a crash "
                    + "copies the records since the last commit again. A mirror whose delivery is changed (every "
                    + "instance stopped first) goes on from where it committed, when the target still holds those "
                    + "copies (docs/mirror.md, Changing the delivery).");
    public static final ConfigKey<String> TOPIC_NAME = ConfigKey.withDefault("mirror.topic-name", Types.STRING,
            "{topic}",
            "The name of each target topic, with `{topic}` for the source topic's name: `dc1.{topic}` adds a "
                    + "prefix. Partition p of the source is always partition p of the target.");
    public static final ConfigKey<Pattern> GROUPS = ConfigKey.optional("mirror.groups", Types.REGEX,
            "Source consumer groups (whole names) whose committed offsets are translated, exactly, to the same "
                    + "group in the target while it has no members there: a group failing over reads on where it "
                    + "stopped. Without it no group is translated.");
    public static final ConfigKey<Duration> GROUP_SYNC_INTERVAL = ConfigKey.withDefault("mirror.group-sync-interval",
            Types.duration(Duration.ofMillis(100)), Durations.format(DEFAULTS.groupSyncInterval()),
            "How often the groups' offsets are translated.");
    public static final ConfigKey<Duration> TOPIC_SYNC_INTERVAL = ConfigKey.withDefault("mirror.topic-sync-interval",
            Types.duration(Duration.ofSeconds(1)), Durations.format(DEFAULTS.topicSyncInterval()),
            "How often the target topics follow the source's: partitions added, and the copied configs changed "
                    + "(which ones: docs/mirror.md).");
    public static final ConfigKey<Integer> REPLICATION_FACTOR = ConfigKey.optional("mirror.replication-factor",
            Types.integer(1, Short.MAX_VALUE),
            "The replication factor of the target topics the mirror creates. Without it, the target's default.");
    public static final ConfigKey<Duration> COMMIT_INTERVAL = ConfigKey.withDefault("mirror.commit-interval",
            Types.duration(Duration.ofMillis(10)), Durations.format(DEFAULTS.commitInterval()),
            "How often each partition's progress is committed (exactly once: a transaction per partition and "
                    + "interval; read_committed readers see the copies then). Exactly once, less than half the target "
                    + "producers' transaction.timeout.ms (60 s unless `target.properties` sets it): the target aborts "
                    + "a transaction open longer.");

    public static final KeyCatalog CATALOG = new KeyCatalog(KeyCatalog.concat(
            List.of(new KeyCatalog.Section("", "A mirror file")),
            SOURCE.sections("the cluster and topics to copy from"),
            TARGET.sections("the cluster to copy to"),
            List.of(new KeyCatalog.Section("mirror", "what the copy promises and how topics and groups are named"),
                    new KeyCatalog.Section("metrics", "the HTTP endpoint of a running mirror"))),
            KeyCatalog.concat(
                    List.of(SOURCE.bootstrapServers(), TOPICS, PATTERN), SOURCE.connectionKeys(),
                    List.of(SOURCE.properties(), TARGET.bootstrapServers()), TARGET.connectionKeys(),
                    List.of(TARGET.properties(), NAME, DELIVERY, TOPIC_NAME, GROUPS, GROUP_SYNC_INTERVAL,
                            TOPIC_SYNC_INTERVAL, REPLICATION_FACTOR, COMMIT_INTERVAL, PipelineKeys.METRICS_PORT,
                            PipelineKeys.METRICS_ADDRESS)));
}
