package io.sluice.mirror;

import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.core.ClusterConnection;
import io.sluice.core.Engine;
import io.sluice.core.EngineConfig;
import io.sluice.core.OutOfRangePolicy;
import io.sluice.core.RecordsLostException;
import io.sluice.core.commit.CommitPoint;
import io.sluice.core.commit.TargetBrokers;
import io.sluice.core.commit.TargetReach;
import io.sluice.core.commit.TargetRoles;
import io.sluice.core.commit.TargetTransactionCommit;
import io.sluice.core.commit.TargetWait;
import io.sluice.mirror.copy.AcknowledgedWrites;
import io.sluice.mirror.copy.MirrorSink;
import io.sluice.mirror.copy.TargetWrites;
import io.sluice.mirror.copy.TransactionalWrites;
import io.sluice.mirror.groups.GroupOffsetSync;
import io.sluice.mirror.topics.ClusterTopics;
import io.sluice.mirror.topics.EarlierDelivery;
import io.sluice.mirror.topics.TargetTopics;
import io.sluice.mirror.topics.TopicSync;
import io.sluice.mirror.topics.TopicsFirst;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * A running mirror: the engine consuming the source topics, the {@link MirrorSink} copying to the target, and the
 * commit point of its {@link MirrorDelivery}, with the target topics made ready before each claim and kept like the
 * source's ({@link TopicSync}); and, when the config names groups, the {@link GroupOffsetSync} that keeps their offsets
 * in the target.
 *
 * <p>Threading: all public methods may be called from any thread.
 */
public final class Mirror implements AutoCloseable {

    /**
     * How long a stop waits for the group sync's last round: a bounded run's translated groups are its result; a
     * stopped mirror's are synced again at its next start, and a stop must end within a container's grace (30 s).
     */
    private static final Duration LAST_GROUP_ROUND_BOUNDED = Duration.ofSeconds(30);
    private static final Duration LAST_GROUP_ROUND = Duration.ofSeconds(10);

    /** How long the mirror's own requests wait for a cluster, unless its properties say ({@link #adminTimeout}). */
    private static final Duration ADMIN_TIMEOUT = Duration.ofSeconds(30);

    private final MirrorConfig config;
    private final Admin sourceAdmin;
    private final Admin targetAdmin;
    private final MirrorSink sink;
    private final Engine engine;
    private final TopicSync topicSync;
    private final Optional<GroupOffsetSync> groupSync;
    private final TargetReach targetReach;
    /** What each target broker does for this mirror, asked only while one owes the producers an answer. */
    private final TargetRoles targetRoles;

    private Mirror(MirrorConfig config, Admin sourceAdmin, Admin targetAdmin, MirrorSink sink, Engine engine,
            TopicSync topicSync, Optional<GroupOffsetSync> groupSync, TargetReach targetReach, TargetRoles targetRoles) {
        this.config = config;
        this.sourceAdmin = sourceAdmin;
        this.targetAdmin = targetAdmin;
        this.sink = sink;
        this.engine = engine;
        this.topicSync = topicSync;
        this.groupSync = groupSync;
        this.targetReach = targetReach;
        this.targetRoles = targetRoles;
    }

    /** Starts copying; the engine joins the source group and claims its partitions in the background. */
    public static Mirror start(MirrorConfig config) {
        return start(config, null);
    }

    /** As {@link #start(MirrorConfig)}, with the engine's meters on {@code registry} (null: none). */
    public static Mirror start(MirrorConfig config, MeterRegistry registry) {
        Admin sourceAdmin = Admin.create(ClusterConnection.of(config.sourceProperties()));
        Admin targetAdmin = Admin.create(ClusterConnection.of(config.targetProperties()));
        try {
            // both asked at once: the first round trip to each cluster is also its connection's set-up; answered while
            // the transactions' client is made (a round trip and a client each took 150-200 ms of a start)
            KafkaFuture<String> sourceId = sourceAdmin.describeCluster().clusterId();
            KafkaFuture<String> targetId = targetAdmin.describeCluster().clusterId();
            TargetTransactionCommit transactions = config.delivery() == MirrorDelivery.EXACTLY_ONCE
                    ? transactions(config) : null;
            // the engine owns the transactions once it has made its commit point of them; until then, a failed start
            // closes them here (their client holds connections to the target)
            AtomicBoolean handedOver = new AtomicBoolean(transactions == null);
            try {
                String sourceCluster = get(sourceId, sourceTimeout(config), "reach the source cluster");
                String targetCluster = get(targetId, targetTimeout(config), "reach the target cluster");
                refuseCopyIntoItself(config, sourceCluster, targetCluster);
                if (sourceCluster.equals(targetCluster)) {
                    Optional<String> loop = config.copiesItsCopies(get(sourceAdmin.listTopics().names(),
                            sourceTimeout(config), "list the source cluster's topics"));
                    if (loop.isPresent()) {
                        throw new IllegalArgumentException(loop.get());
                    }
                }
                return start(config, registry, sourceAdmin, targetAdmin, sourceCluster, targetCluster, transactions,
                        handedOver);
            } catch (RuntimeException e) {
                if (!handedOver.get()) {
                    transactions.close();
                }
                throw e;
            }
        } catch (RuntimeException e) {
            sourceAdmin.close(Duration.ZERO);
            targetAdmin.close(Duration.ZERO);
            throw e;
        }
    }

    private static Mirror start(MirrorConfig config, MeterRegistry registry, Admin sourceAdmin, Admin targetAdmin,
            String sourceCluster, String targetCluster, TargetTransactionCommit transactions,
            AtomicBoolean handedOver) {
        ClusterTopics sourceTopics = new ClusterTopics(sourceAdmin, sourceTimeout(config));
        ClusterTopics targetTopics = new ClusterTopics(targetAdmin, targetTimeout(config));
        // within one cluster, a topic created after the start whose copy this mirror would copy again is refused when
        // it is claimed (the check at the start saw only the topics there then)
        TargetTopics topics = new TargetTopics(sourceTopics, targetTopics, config.naming(), config.replicationFactor(),
                sourceCluster.equals(targetCluster) ? topic -> config.copiesItsCopies(List.of(topic))
                        : topic -> Optional.empty());
        if (config.topicPattern().isEmpty()) {
            topics.prepareAhead(config.topics());
        }
        CommitPoint.Factory commitPoint;
        TargetWrites writes;
        if (transactions != null) {
            commitPoint = group -> {
                handedOver.set(true);
                return new TopicsFirst(transactions, topics,
                        EarlierDelivery.atLeastOnce(sourceAdmin, config.sourceGroup(), config.naming(), config.name()),
                        config.name(), true, config.targetProperties(), sourceCluster, config.progressGroup());
            };
            writes = new TransactionalWrites(transactions);
        } else {
            commitPoint = group -> new TopicsFirst(CommitPoint.sourceGroup().create(group), topics,
                    EarlierDelivery.exactlyOnce(targetAdmin, sourceAdmin, config.progressGroup(), config.naming(),
                            config.name()),
                    config.name(), false, config.targetProperties(), sourceCluster, config.sourceGroup());
            writes = AcknowledgedWrites.of(producerProperties(config));
        }
        MirrorSink sink = new MirrorSink(writes, transactions != null, config.naming(), sourceCluster, targetCluster);
        EngineConfig.Builder engineConfig = engineConfig(config).commitPoint(commitPoint);
        if (registry != null) {
            engineConfig.meterRegistry(registry);
        }
        Engine engine = Engine.startSink(engineConfig.build(), sink);
        TargetRoles roles = targetRoles(config, targetAdmin, engine, transactions);
        Optional<GroupOffsetSync> groupSync = Optional.empty();
        try {
            groupSync = config.groups().map(groups -> GroupOffsetSync.start(config, sourceCluster, sourceAdmin,
                    targetAdmin, sink::held));
            TargetBrokers brokers = new TargetBrokers(TargetReach.grace(config.targetProperties()), roles,
                    () -> waits(config, sink, transactions));
            TargetReach reach = TargetReach.of(config.targetProperties(), writes::producerMetrics,
                    transactions == null ? sink::sending : () -> sink.sending() || transactions.committing(), brokers);
            sink.unableToFinishWhen(() -> reach.silenceInWords(System.nanoTime()));
            return new Mirror(config, sourceAdmin, targetAdmin, sink, engine, TopicSync.start(sourceTopics,
                    targetTopics, topics, config.naming(), config.topicSyncInterval(), config.name()), groupSync,
                    reach, roles);
        } catch (RuntimeException e) {
            groupSync.ifPresent(GroupOffsetSync::close); // its thread and clients would outlive the failed start
            roles.close();
            engine.close();
            sink.close();
            throw e;
        }
    }

    /**
     * What each target broker does for this mirror, asked of the target when copies wait: it leads the target
     * partitions copied into, and exactly once it coordinates the progress group and the transactions.
     */
    private static TargetRoles targetRoles(MirrorConfig config, Admin targetAdmin, Engine engine,
            TargetTransactionCommit transactions) {
        Supplier<List<TopicPartition>> written = () -> engine.partitions().stream()
                .map(p -> target(config, p.partition())).toList();
        TargetRoles roles = transactions == null
                ? new TargetRoles(targetAdmin, config.targetProperties(), written, Optional.empty(), Map::of)
                : new TargetRoles(targetAdmin, config.targetProperties(), written, Optional.of(config.progressGroup()),
                        () -> {
                            Map<TopicPartition, String> ids = new HashMap<>();
                            transactions.transactionalIds().forEach((source, id) -> ids.put(target(config, source), id));
                            return ids;
                        });
        return roles.prepare();
    }

    /** What the copies wait for in the target now, by target partition: their acknowledgements, or their commit. */
    private static Map<TopicPartition, TargetWait> waits(MirrorConfig config, MirrorSink sink,
            TargetTransactionCommit transactions) {
        Map<TopicPartition, TargetWait> waits = sink.waits();
        if (transactions != null) {
            transactions.commitsWaiting().forEach((source, since) ->
                    waits.put(target(config, source), new TargetWait(TargetWait.Kind.COMMIT, since)));
        }
        return waits;
    }

    private static TopicPartition target(MirrorConfig config, TopicPartition source) {
        return new TopicPartition(config.naming().target(source.topic()), source.partition());
    }

    /** The engine that runs the copy: its health, statistics and partitions. */
    public Engine engine() {
        return engine;
    }

    /** The sync of the source groups' offsets to the target; empty when the config names no groups. */
    public Optional<GroupOffsetSync> groupSync() {
        return groupSync;
    }

    /** What was copied so far. */
    public Counts counts() {
        return sink.counts();
    }

    /**
     * How long copies have waited for the target cluster with no answer, once that is the grace
     * ({@link TargetReach#grace}) or longer (said once in the log, and again when it answers); empty otherwise. Each call
     * is a look: a run's progress line calls it every tick.
     */
    public Optional<Duration> targetUnreachable() {
        return targetReach.unreachableFor(System.nanoTime());
    }

    /**
     * The target brokers that have held copies or commits up for the grace ({@link TargetReach#grace}) or longer
     * without an answer while the target's other brokers answer, with how long (said once in the log with what waits
     * for each, and again when it answers); empty otherwise. As of the last {@link #targetUnreachable()} look.
     */
    public Map<Integer, Duration> targetBrokersUnanswered() {
        return targetReach.brokersUnanswered(System.nanoTime());
    }

    public MirrorConfig config() {
        return config;
    }

    /**
     * A snapshot of what the sink did since start: copies committed (and their key and value bytes), records not copied
     * because they came from the target cluster, and copies sent up to the last checkpoint, whether their commit came
     * or not (exactly once, those of a transaction that aborted are not in the target; a fenced instance's are many).
     */
    public record Counts(long copied, long copiedBytes, long cameFromTarget, long sent) {
    }

    /** Waits until the mirror stopped by itself (a bounded run's end, or a failure). */
    public boolean awaitTermination(Duration timeout) {
        return engine.awaitTermination(timeout);
    }

    /**
     * Stops: the topic sync first, then the engine commits what was copied and the target's producers close, then the
     * group sync makes its last round over what was committed (none after a failure), and the admin clients (which the
     * syncs use) close.
     */
    @Override
    public void close() {
        topicSync.close();
        // before the engine gives them up: the last round of the group sync writes the offsets of these alone (another
        // instance holds the others); a run that ended by itself gave them up already, and writes those it copied
        Set<TopicPartition> copying = sink.held();
        try {
            engine.close();
        } finally {
            try {
                sink.close();
            } catch (Exception e) {
                // the engine committed or failed already; closing the producers can only lose uncommitted sends
            }
            targetRoles.close();
            try {
                // after a failure no last round: a target that does not answer kept the stop waiting the round's 30 s
                // after "stopped with an error" (a new user's run); the next start syncs the groups again
                // (records lost at a gap fail the engine after its last commit: that round is as good as any)
                // nor while the target is silent: the drain gave up on it (a loss at a gap may be the failure then)
                boolean failed = engine.failure().filter(f -> !(f instanceof RecordsLostException)).isPresent()
                        || targetReach.unreachableFor(System.nanoTime()).isPresent();
                // a bounded run gives its partitions up as it ends them, and writes what it copied (all, if it copied
                // none: its groups are its result); a mirror that held none at its stop (one of several, idle or
                // after a rebalance) writes none: those it copied before are another instance's to write now, and an
                // older translation written after that one's would take its groups back
                boolean lastRound = !failed && (config.untilEnd() || !copying.isEmpty());
                Set<TopicPartition> copied = copying.isEmpty() ? sink.everHeld() : copying;
                Duration wait = config.untilEnd() ? LAST_GROUP_ROUND_BOUNDED : LAST_GROUP_ROUND;
                groupSync.ifPresent(lastRound ? sync -> sync.finish(copied, wait) : GroupOffsetSync::close);
            } finally {
                sourceAdmin.close(Duration.ofSeconds(5));
                targetAdmin.close(Duration.ofSeconds(5));
            }
        }
    }

    private static EngineConfig.Builder engineConfig(MirrorConfig config) {
        Map<String, Object> consumer = new HashMap<>(config.sourceProperties());
        // aborted source transactions are never copied, and a copy never overtakes the source's last stable offset
        consumer.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        consumer.putIfAbsent(ConsumerConfig.CLIENT_ID_CONFIG, config.sourceGroup());
        if (config.topicPattern().isPresent()) {
            // a new matching topic is copied within half a minute, not the consumer's default five
            consumer.putIfAbsent(ConsumerConfig.METADATA_MAX_AGE_CONFIG, 30_000);
        }
        EngineConfig.Builder engine = EngineConfig.builder()
                .consumerProperties(consumer)
                .groupId(config.sourceGroup())
                .commitInterval(config.commitInterval())
                // a loss in one partition stops that one, loudly; the others go on copying
                .outOfRangePolicy(OutOfRangePolicy.STOP_PARTITION)
                .untilEnd(config.untilEnd());
        return config.topicPattern().isPresent() ? engine.topicPattern(config.topicPattern().get())
                : engine.topics(config.topics().toArray(String[]::new));
    }

    /** The exactly-once commit point: each source partition's transaction in the target. */
    private static TargetTransactionCommit transactions(MirrorConfig config) {
        return TargetTransactionCommit.builder()
                .producerProperties(producerProperties(config))
                .transactionalIdPrefix(config.transactionalIdPrefix())
                .progressGroup(config.progressGroup())
                .progressPartition(config.naming()::target)
                .build();
    }

    private static void refuseCopyIntoItself(MirrorConfig config, String sourceCluster, String targetCluster) {
        if (sourceCluster.equals(targetCluster) && config.naming().isIdentity()) {
            throw new IllegalArgumentException("the source and the target are the same cluster (" + sourceCluster
                    + ") and the topics keep their names: the mirror would copy each topic into itself. Name the "
                    + "target topics with a prefix or a template.");
        }
    }

    /** Producer settings for the target: its connection and the throughput settings a careful operator would set. */
    private static Map<String, Object> producerProperties(MirrorConfig config) {
        Map<String, Object> props = new HashMap<>();
        props.put(ProducerConfig.LINGER_MS_CONFIG, 10);
        props.put(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
        // the target topic decides how large a copy may be (its max.message.bytes follows the source's); the
        // producer's own 1 MB cap would stop the mirror at a record the source took
        props.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 16 * 1024 * 1024);
        props.putAll(config.targetProperties());
        props.putIfAbsent(ProducerConfig.CLIENT_ID_CONFIG, config.progressGroup());
        return props;
    }

    /**
     * How long the mirror's own requests to a cluster (its ID at the start, its topics) wait for an answer: what its
     * clients are told to wait, when the file says ({@code default.api.timeout.ms} in the source's properties, the
     * consumer's; {@code max.block.ms} in the target's, the producers'), else 30 s. A start while the target is away
     * waits this long before it says so and tries again. At least a second, a round trip's worth (0 is a valid
     * {@code max.block.ms}).
     */
    static Duration adminTimeout(Map<String, ?> clusterProperties, String key) {
        Object value = clusterProperties.get(key);
        if (value == null) {
            return ADMIN_TIMEOUT;
        }
        try {
            return Duration.ofMillis(Math.max(1_000, Long.parseLong(value.toString().trim())));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be a number of milliseconds, not '" + value + "'", e);
        }
    }

    private static Duration sourceTimeout(MirrorConfig config) {
        return adminTimeout(config.sourceProperties(), ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG);
    }

    private static Duration targetTimeout(MirrorConfig config) {
        return adminTimeout(config.targetProperties(), ProducerConfig.MAX_BLOCK_MS_CONFIG);
    }

    private static <T> T get(KafkaFuture<T> future, Duration timeout, String what) {
        try {
            return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException("cannot " + what + ": " + e.getCause().getMessage(), e.getCause());
        } catch (java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("cannot " + what + ": no answer within "
                    + (timeout.toMillis() % 1000 == 0 ? timeout.toSeconds() + " s" : timeout.toMillis() + " ms"), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while trying to " + what, e);
        }
    }
}
