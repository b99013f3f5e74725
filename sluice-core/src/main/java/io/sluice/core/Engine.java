package io.sluice.core;

import io.sluice.core.commit.BrokerWatch;
import io.sluice.core.commit.CommitPoint;
import io.sluice.core.commit.SourceGroupCommit;
import io.sluice.core.internal.budget.MemoryBudget;
import io.sluice.core.internal.consumer.CommitSettings;
import io.sluice.core.internal.consumer.ConsumerLoop;
import io.sluice.core.internal.consumer.EngineFailure;
import io.sluice.core.internal.consumer.EngineParts;
import io.sluice.core.internal.consumer.KnownTopicIds;
import io.sluice.core.internal.consumer.SourceGroupView;
import io.sluice.core.internal.consumer.StartSettings;
import io.sluice.core.internal.consumer.Subscription;
import io.sluice.core.internal.consumer.ReadRateLimit;
import io.sluice.core.internal.failure.Backoff;
import io.sluice.core.internal.failure.DeadLetterPublisher;
import io.sluice.core.internal.failure.DeadLetters;
import io.sluice.core.internal.failure.DeadLettersInCommit;
import io.sluice.core.internal.failure.FailurePolicy;
import io.sluice.core.internal.failure.PendingDeadLetters;
import io.sluice.core.internal.failure.RecordProcessor;
import io.sluice.core.internal.lane.LaneRouter;
import io.sluice.core.internal.lane.WorkerPool;
import io.sluice.core.internal.metrics.EngineMetrics;
import io.sluice.core.sink.Sink;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.OptionalInt;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Semaphore;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Sluice's engine: consumes topics and runs a {@link RecordHandler} on every record with more parallelism than the
 * topics have partitions, committing only offsets whose records are done, so that a crash, a rebalance or a shutdown
 * never loses a record.
 *
 * <pre>{@code
 * try (Engine engine = Engine.start(config, new StringDeserializer(), new StringDeserializer(),
 *         record -> store(record.key(), record.value()))) {
 *     ...
 * }   // close(): stops fetching, finishes records in flight, commits
 * }</pre>
 *
 * <p>Threading: all public methods may be called from any thread.
 */
public final class Engine implements AutoCloseable {

    private final EngineConfig config;
    private final ConsumerLoop loop;
    private final Thread consumerThread;
    private final EngineFailure failure;
    private final DeadLetterPublisher deadLetters;
    private final RecordProcessor processor;
    private final WorkerPool pool;

    private Engine(EngineConfig config, ConsumerLoop loop, EngineFailure failure, DeadLetterPublisher deadLetters,
            RecordProcessor processor, WorkerPool pool) {
        this.config = config;
        this.loop = loop;
        this.failure = failure;
        this.deadLetters = deadLetters;
        this.processor = processor;
        this.pool = pool;
        this.consumerThread = new Thread(loop, "sluice-consumer-" + config.groupId());
    }

    /**
     * Starts consuming with a blocking handler on {@code concurrency} worker threads; returns at once. Watch
     * {@link #health()} for progress and failures.
     */
    public static <K, V> Engine start(EngineConfig config, Deserializer<K> keys, Deserializer<V> values,
            RecordHandler<K, V> handler) {
        return start(config, policy -> RecordProcessor.blocking(keys, values, handler, policy), config.concurrency(),
                null, null, config.ordering(), config.processingTimeout(), config.virtualThreads());
    }

    /**
     * Starts consuming with an asynchronous handler: up to {@code concurrency} records in flight, started by a few
     * worker threads (one per core); returns at once.
     */
    public static <K, V> Engine startAsync(EngineConfig config, Deserializer<K> keys, Deserializer<V> values,
            AsyncRecordHandler<K, V> handler) {
        return start(config, policy -> RecordProcessor.async(keys, values, handler, policy),
                Math.max(2, Runtime.getRuntime().availableProcessors()), new Semaphore(config.concurrency()), null,
                config.ordering(), config.processingTimeout(), requirePlatformThreads(config, "asynchronous handlers"));
    }

    /**
     * Starts consuming into a {@link Sink}: each partition's records reach the sink in offset order, partitions in
     * parallel on up to {@code concurrency} workers, and offsets are committed from the sink's checkpoints, so the
     * Kafka commit is the sink's commit point. Writes have no processing timeout: a sink bounds its own I/O.
     */
    public static Engine startSink(EngineConfig config, Sink sink) {
        return start(config, policy -> RecordProcessor.sink(sink, policy), config.concurrency(), null, sink,
                Ordering.PARTITION, NO_TIMEOUT, requirePlatformThreads(config, "sinks"));
    }

    /** Long enough never to expire, short enough that adding it to a nanoTime cannot overflow twice. */
    private static final Duration NO_TIMEOUT = Duration.ofNanos(Long.MAX_VALUE / 4);

    private static boolean requirePlatformThreads(EngineConfig config, String what) {
        if (config.virtualThreads()) {
            throw new IllegalArgumentException("virtual threads are for blocking handlers; " + what
                    + " run on a few platform threads already: leave virtualThreads off");
        }
        return false;
    }

    private static Engine start(EngineConfig config, Function<FailurePolicy, RecordProcessor> processors, int workers,
            Semaphore inFlight, Sink sink, Ordering ordering, Duration timeout, boolean virtual) {
        MemoryBudget budget = new MemoryBudget(config.memoryBudgetBytes());
        Map<String, Object> props = new HashMap<>(config.consumerProperties());
        props.putIfAbsent(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.putIfAbsent(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, CooperativeStickyAssignor.class.getName());
        props.putIfAbsent(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, budget.partitionFetchBytes());
        props.putIfAbsent(ConsumerConfig.FETCH_MAX_BYTES_CONFIG, budget.fetchMaxBytes());
        if (config.maxReadBytesPerSecond() > 0) {
            ReadRateLimit.capFetchSizes(props, config.maxReadBytesPerSecond());
        }
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        // the engine decides where to start; a missing or lost position must never be reset silently
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none");
        if ("consumer".equalsIgnoreCase(String.valueOf(props.get(ConsumerConfig.GROUP_PROTOCOL_CONFIG)))) {
            props.remove(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG); // the broker assigns (KIP-848)
        }

        // what this start made, closed again (last first) if a later step fails: the consumer thread owns them
        // only once it runs
        Deque<AutoCloseable> made = new ArrayDeque<>();
        try {
            KafkaConsumer<byte[], byte[]> consumer =
                    new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
            made.push(() -> consumer.close(Duration.ZERO));
            // the engine's admin client also reads the group's offsets for a bounded run, off the consumer thread
            Admin admin = Admin.create(ClusterConnection.of(config.consumerProperties()));
            made.push(() -> admin.close(Duration.ZERO));
            SourceGroupView group = new SourceGroupView(consumer, admin, config.groupId());
            CommitPoint commitPoint = config.commitPoint().create(group);
            made.push(commitPoint::close);
            if (commitPoint.commitsInLane() && sink == null) {
                throw new IllegalArgumentException(commitPoint.describe() + " commits in order with a sink's "
                        + "writes; handlers commit through the source group: start a sink (Engine.startSink) or leave "
                        + "the commit point at its default");
            }
            EngineFailure failure = new EngineFailure(consumer::wakeup);
            KnownTopicIds topicIds = new KnownTopicIds();
            DeadLetterPublisher publisher = null;
            DeadLetters deadLetters = null;
            if (config.failureOutcome() == FailureOutcome.DEAD_LETTER) {
                if (deadLettersWithCommits(config, props, commitPoint, sink)) {
                    PendingDeadLetters pending = new PendingDeadLetters(config.deadLetterTopic(), config.groupId(),
                            topicIds::of);
                    commitPoint = new DeadLettersInCommit(commitPoint, group, pending, producerProperties(config),
                            props.get(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG) == null ? null
                                    : String.valueOf(props.get(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG)),
                            config.deadLetterRetryFor());
                    made.pop();
                    made.push(commitPoint::close); // it closes the commit point it wraps
                    deadLetters = pending;
                } else {
                    publisher = new DeadLetterPublisher(config.deadLetterTopic(), config.groupId(), topicIds::of,
                            producerProperties(config), config.deadLetterRetryFor());
                    made.push(publisher);
                    deadLetters = publisher;
                }
            }
            WorkerPool pool = new WorkerPool("sluice-" + config.groupId(), workers, timeout.toNanos(), virtual);
            RecordProcessor processor = processors.apply(new FailurePolicy(config.maxAttempts(),
                    new Backoff(config.initialBackoff(), config.maxBackoff()), config.failureOutcome(), deadLetters,
                    failure::fail));
            EngineMetrics metrics = new EngineMetrics(config.meterRegistry(), config.groupId());
            EngineParts parts = new EngineParts(consumer, admin, pool, processor,
                    inFlight, new LaneRouter(ordering, sink == null ? config.laneFunction() : null,
                            config.lanesPerPartition()), budget, commitPoint, failure, metrics,
                    config.maxReadBytesPerSecond() > 0
                            ? new ReadRateLimit(config.maxReadBytesPerSecond(), System.nanoTime()) : null,
                    new StartSettings(config.startPosition(), config.outOfRangePolicy(), config.startTimestamp(),
                            config.timestampStart(), config.window(), config.drainTimeout()),
                    new CommitSettings(config.commitInterval(), config.drainTimeout()), config.stuckThreshold(),
                    topicIds);
            ConsumerLoop loop = new ConsumerLoop(new ConsumerLoop.Settings(
                    Subscription.of(config.topics(), config.topicPattern().orElse(null)), config.untilEnd(),
                    config.drainTimeout(), bootstrapText(props.get(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG)),
                    "read_committed".equalsIgnoreCase(String.valueOf(props.get(ConsumerConfig.ISOLATION_LEVEL_CONFIG)))
                            ? IsolationLevel.READ_COMMITTED : IsolationLevel.READ_UNCOMMITTED,
                    BrokerWatch.readsFromFollowers(props)), parts, sink);
            Engine engine = new Engine(config, loop, failure, publisher, processor, pool);
            metrics.bind(engine::stats, () -> engine.health() != Health.STOPPED && engine.health() != Health.FAILED);
            metrics.bindSource(engine::sourceUnreachable);
            metrics.bindGaps(engine::partitionsStoppedAtGap);
            engine.consumerThread.start();
            return engine;
        } catch (RuntimeException | Error e) {
            closeAll(made, e);
            throw e;
        }
    }

    /** The bootstrap servers as a user writes them: a list (which the clients accept) joined by commas. */
    private static String bootstrapText(Object setting) {
        return setting instanceof Collection<?> list
                ? list.stream().map(String::valueOf).collect(Collectors.joining(","))
                : String.valueOf(setting);
    }

    /** Closes what a failed start made, last first; what fails to close is added to the start's failure. */
    private static void closeAll(Deque<AutoCloseable> made, Throwable failure) {
        while (!made.isEmpty()) {
            try {
                made.pop().close();
            } catch (Exception e) {
                failure.addSuppressed(e);
            }
        }
    }

    public Health health() {
        return loop.health();
    }

    /** Counters and gauges, for metrics and tests. */
    public EngineStats stats() {
        return loop.stats(processor.counts(), pool.timeouts());
    }

    /** Each assigned partition: committed offset, watermark, gap, lag, stuck time; refreshed every second. */
    public List<PartitionStats> partitions() {
        return loop.partitionStats();
    }

    /**
     * How many partitions the topics this engine's group reads have, as the cluster's metadata last said (refreshed
     * every second), or empty when not known (partitions assigned rather than subscribed to, or before the first
     * assignment). Those beyond {@link #partitions()} are held by the group's other members, or by one that stopped,
     * until its session times out: "caught up" of this engine's partitions says nothing of theirs.
     */
    public OptionalInt subscribedPartitions() {
        int count = loop.subscribedPartitions();
        return count < 0 ? OptionalInt.empty() : OptionalInt.of(count);
    }

    /**
     * How long the engine has heard nothing from the source cluster (every broker it knows down, cut off or silent),
     * once that is 15 s or more; empty while it hears from it, before its first poll and once it closes. The lag of
     * {@link #partitions()} is as of the last time it heard from the brokers.
     */
    public Optional<Duration> sourceUnreachable() {
        return loop.sourceUnreachable();
    }

    /**
     * The assigned partitions that have had no leader in the source cluster for 15 s or more (the brokers that hold
     * them down, while the cluster's other brokers answer), with how long: they are not read meanwhile, and their lag
     * in {@link #partitions()} is as of their last answer. Said once in the log, and again when they have a leader.
     */
    public Map<TopicPartition, Duration> partitionsWithoutLeader() {
        return loop.partitionsWithoutLeader();
    }

    /**
     * The source brokers that have not answered this engine for 15 s or more while the cluster's other brokers answer
     * (a network fault between this process and one broker, a broker that hangs), by id, with how long: the partitions
     * they lead keep their leader in the metadata ({@link #partitionsWithoutLeader} does not name them) and are not
     * read meanwhile. Said once in the log, with those partitions, and again when the broker answers.
     */
    public Map<Integer, Duration> sourceBrokersUnanswered() {
        return loop.brokersUnanswered();
    }

    /**
     * The assigned partitions read from the brokers of {@link #sourceBrokersUnanswered} (their leader, or the follower
     * a consumer with {@code client.rack} reads from), with the broker's id.
     */
    public Map<TopicPartition, Integer> partitionsOfUnansweredSourceBrokers() {
        return loop.partitionsOfUnansweredBrokers();
    }

    /**
     * The assigned partitions this engine stopped reading because records they were to process are gone, with the loss
     * in words ({@link OutOfRangePolicy#STOP_PARTITION}; said once in the log): the others go on, and the engine ends
     * failed with these losses as the reason once it stops. Empty under the other policies.
     */
    public Map<TopicPartition, String> partitionsStoppedAtGap() {
        return loop.partitionsStoppedAtGap();
    }

    /** Why the engine failed, when {@link #health()} is {@link Health#FAILED}. */
    public Optional<Throwable> failure() {
        return Optional.ofNullable(failure.get());
    }

    /** Stops fetching {@code partition} until {@link #resume}; records already fetched still complete. */
    public void pause(TopicPartition partition) {
        loop.requestPause(partition, true);
    }

    public void resume(TopicPartition partition) {
        loop.requestPause(partition, false);
    }

    /**
     * Drains: stops fetching, lets records in flight finish (up to the drain timeout), commits what is done and
     * closes. Records queued but not started stay uncommitted and are processed after a restart.
     */
    @Override
    public void close() {
        loop.requestClose();
        awaitTermination(config.drainTimeout().multipliedBy(3).plusSeconds(10));
    }

    /** Waits for the engine to stop by itself (after a failure or {@link #close()}). */
    public boolean awaitTermination(Duration timeout) {
        try {
            consumerThread.join(timeout.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        boolean stopped = !consumerThread.isAlive();
        if (stopped && deadLetters != null) {
            deadLetters.close();
        }
        return stopped;
    }

    /**
     * Whether dead letters go out with the commits of their offsets, exactly once for a read_committed reader: when
     * the sink is exactly once and commits through the source group (an archive), the dead-letter topic is in the
     * source cluster (one transaction can hold the letters and the group's offsets only there), and the consumer
     * reads read_committed (its offset fetch then waits for a transaction still open instead of reading past it).
     * Otherwise each letter is published at once, and can repeat after a crash.
     */
    private static boolean deadLettersWithCommits(EngineConfig config, Map<String, Object> consumerProps,
            CommitPoint commitPoint, Sink sink) {
        Object sourceServers = consumerProps.get(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG);
        Object letterServers = producerProperties(config).get(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG);
        return sink != null && sink.exactlyOnce() && commitPoint instanceof SourceGroupCommit
                && "read_committed".equalsIgnoreCase(String.valueOf(
                        consumerProps.get(ConsumerConfig.ISOLATION_LEVEL_CONFIG)))
                && servers(sourceServers).equals(servers(letterServers));
    }

    private static Set<String> servers(Object bootstrap) {
        if (bootstrap instanceof Collection<?> list) {
            return list.stream().map(s -> String.valueOf(s).trim()).collect(Collectors.toSet());
        }
        return Arrays.stream(String.valueOf(bootstrap).split(",")).map(String::trim).collect(Collectors.toSet());
    }

    private static Map<String, Object> producerProperties(EngineConfig config) {
        Map<String, Object> producer = ClusterConnection.of(config.consumerProperties());
        producer.putAll(config.producerProperties());
        return producer;
    }
}
