package io.sluice.core.commit;

import io.sluice.core.ClusterConnection;
import io.sluice.core.ErrorWords;
import io.sluice.core.crash.CrashPoints;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The commit point of mirrors and merges: a transaction in the target cluster that holds the records a sink copied
 * there and, in the same commit, the source offsets they came from, stored as the offsets of a group in the target
 * ({@code progressGroup}, which never has members). Either both become visible to read_committed readers, or neither.
 * The offsets are keyed by a partition of the target cluster ({@code progressPartition}, by default the source
 * partition's name): the target's group coordinator refuses offsets of a topic it does not have.
 *
 * <p>Fencing: each source partition has its own transactional ID ({@code <prefix>-<topic>-<partition>}), the same on
 * every instance and after every restart. {@link #claim} calls {@code initTransactions} for it, which bumps the ID's
 * epoch and aborts any transaction an earlier owner left open; from then on the earlier owner's producer is fenced
 * and can never commit again, however long it was frozen. Only then are the committed offsets read, by a read_committed
 * consumer, which waits out offsets still pending in a transaction instead of leaving them out. The source consumer group's membership decides who owns
 * a partition; the target's transaction coordinator enforces it.
 *
 * <p>Each partition's transaction is used by its lane only: the sink sends through {@link #sender} while writing, and
 * the engine commits in the lane ({@link #commitsInLane}), right after the sink's checkpoint, so nothing the lane
 * sends afterwards can slip into the commit.
 *
 * <p>What a failed commit means: never "refused for certain" once it was sent. A commit that failed with the producer
 * fenced may still have landed (the coordinator checks the epoch before it looks at whether the commit completed), and
 * a timeout leaves it open; the engine stops either way, and the restart's claim reads what is true. Only a commit
 * refused after {@link #abandon}, before anything was sent, is refused for certain.
 *
 * <p>Threading: {@link #claim}, {@link #release}, {@link #committedProgress} and {@link #close} on the engine's
 * consumer thread, {@link #abandon} on the thread that reported the engine's failure;
 * {@link #sender}'s sends and {@link #commitNow} in the partition's lane. A partition's transaction is created in
 * {@link #claim} (on a claim thread of its own, which {@link #claim} waits for) before any task of its lane is queued,
 * and closed in {@link #release} after its lane's last task, or at {@link #abandon}. Whoever closes a producer, a
 * commit under way on it is never cut short: its lane closes it as that commit returns ({@link Use}).
 */
public final class TargetTransactionCommit implements CommitPoint {

    private final Map<String, Object> producerProperties;
    private final String transactionalIdPrefix;
    private final String progressGroup;
    private final Function<TopicPartition, TopicPartition> progressPartition;
    private final Duration recommitInterval;
    /** Reads the progress group's offsets; the consumer thread only, like {@link #claim}. */
    private final KafkaConsumer<byte[], byte[]> progressReader;
    private final Map<TopicPartition, PartitionTransaction> transactions = new ConcurrentHashMap<>();
    /**
     * Commits under way in lanes: a commit waits on the target with nothing buffered once every record was
     * acknowledged, which a {@link TargetReach} sees by this alone.
     */
    private final AtomicInteger committing = new AtomicInteger();
    /** Reads the progress of partitions others own, for a bounded run; guarded by this. */
    private Admin progressAdmin;
    /** Set once by {@link #abandon}, read by the lanes' commits. */
    private volatile boolean abandoned;

    private TargetTransactionCommit(Builder b) {
        this.producerProperties = Map.copyOf(b.producerProperties);
        this.transactionalIdPrefix = b.transactionalIdPrefix;
        this.progressGroup = b.progressGroup;
        this.progressPartition = b.progressPartition;
        this.recommitInterval = b.recommitInterval;
        Map<String, Object> reader = ClusterConnection.of(producerProperties);
        reader.put(ConsumerConfig.GROUP_ID_CONFIG, progressGroup);
        reader.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        reader.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        this.progressReader = new KafkaConsumer<>(reader, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    public static Builder builder() {
        return new Builder();
    }

    /** This commit point, for {@link io.sluice.core.EngineConfig.Builder#commitPoint}: it needs no source group. */
    public Factory factory() {
        return group -> this;
    }

    /**
     * Where the sink sends what it copies from {@code source}: into that partition's open transaction (one is begun
     * with the first send after a commit). Only from the partition's lane, after the partition was claimed.
     */
    public Sender sender(TopicPartition source) {
        PartitionTransaction tx = transactions.get(source);
        if (tx == null) {
            throw new IllegalStateException(source + " is not claimed by this member: no transaction to send in");
        }
        return tx;
    }

    /** Sends into one source partition's transaction in the target cluster. */
    public interface Sender {
        default Future<RecordMetadata> send(ProducerRecord<byte[], byte[]> record) {
            return send(record, null);
        }

        /**
         * As {@link #send(ProducerRecord)}, and {@code callback} (when not null) hears the write's outcome on the
         * producer's I/O thread, as with {@code KafkaProducer.send}: a caller that accounts for every record (a
         * producer command's tally) learns of each one without waiting on futures.
         */
        Future<RecordMetadata> send(ProducerRecord<byte[], byte[]> record, Callback callback);
    }

    @Override
    public String describe() {
        return "a transaction in the target cluster (progress in group '" + progressGroup + "')";
    }

    @Override
    public boolean commitsInLane() {
        return true;
    }

    /** The progress group has no members: its offsets expire unless committed again (see {@link Builder#recommit}). */
    @Override
    public Optional<Duration> recommitInterval() {
        return Optional.of(recommitInterval);
    }

    /**
     * The progress group's offsets in the target as its group coordinator has them now, mapped back to the source
     * partitions (the source group never has offsets under this commit point): offsets still pending in an open
     * transaction are left out (read as not done), so a bounded run waits for the commit that makes them true.
     */
    @Override
    public KafkaFuture<Map<TopicPartition, OffsetAndMetadata>> committedProgress(Set<TopicPartition> partitions) {
        return GroupProgress.read(progressAdmin(), progressGroup, progressPartition, partitions, true);
    }

    /** Made on first use: only a bounded run reads others' progress. */
    private synchronized Admin progressAdmin() {
        if (progressAdmin == null) {
            progressAdmin = Admin.create(ClusterConnection.of(producerProperties));
        }
        return progressAdmin;
    }

    @Override
    public Map<TopicPartition, OffsetAndMetadata> claim(Set<TopicPartition> partitions, Duration timeout) {
        for (TopicPartition tp : partitions) {
            PartitionTransaction earlier = transactions.remove(tp);
            if (earlier != null) {
                earlier.close(Duration.ZERO); // an assignment this member never released (lost without a callback)
            }
        }
        fenceEarlierOwners(partitions);
        Map<TopicPartition, TopicPartition> sourceOf = new HashMap<>();
        partitions.forEach(tp -> sourceOf.put(progressPartition.apply(tp), tp));
        Map<TopicPartition, OffsetAndMetadata> found = new HashMap<>();
        progressReader.committed(sourceOf.keySet(), timeout).forEach((key, offset) -> {
            if (offset != null) {
                found.put(sourceOf.get(key), offset);
            }
        });
        return found;
    }

    /**
     * A transactional producer and its {@code initTransactions} for every claimed partition, side by side: each bumps its
     * ID's epoch and settles what an earlier owner left open (each can take a round trip or more to the transaction
     * coordinator), and making a producer takes tens of milliseconds of its own (the mirror's first record waits for
     * all of them).
     */
    private void fenceEarlierOwners(Set<TopicPartition> partitions) {
        ExecutorService fencing = Executors.newFixedThreadPool(Math.min(8, partitions.size()), r -> {
            Thread t = new Thread(r, "sluice-claim-" + progressGroup);
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<?>> inits = new ArrayList<>();
            for (TopicPartition tp : partitions) {
                inits.add(fencing.submit(() -> {
                    PartitionTransaction tx = new PartitionTransaction(transactionalId(tp));
                    transactions.put(tp, tx); // before it is fenced: a failure below leaves it to release and close
                    tx.producer.initTransactions();
                }));
            }
            for (Future<?> init : inits) {
                init.get();
            }
        } catch (ExecutionException e) {
            throw e.getCause() instanceof KafkaException k ? k : new KafkaException("claiming " + partitions
                    + " in the target cluster: " + e.getCause(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptException(e);
        } finally {
            fencing.shutdownNow();
        }
    }

    @Override
    public void commit(Map<TopicPartition, OffsetAndMetadata> offsets, Outcome outcome) {
        throw new UnsupportedOperationException("a transaction commits in the partition's lane: commitNow");
    }

    /** In the partition's lane: the source offsets join the partition's transaction, which then commits. */
    @Override
    public void commitNow(Map<TopicPartition, OffsetAndMetadata> offsets, Duration timeout) {
        for (Map.Entry<TopicPartition, OffsetAndMetadata> e : offsets.entrySet()) {
            PartitionTransaction tx = (PartitionTransaction) sender(e.getKey());
            tx.commit(Map.of(progressPartition.apply(e.getKey()), e.getValue()), new ConsumerGroupMetadata(progressGroup));
        }
    }

    /**
     * Only a commit refused after {@link #abandon}, which never reached the target; any other may have landed (see the
     * class comment): the engine stops, and the next claim knows.
     */
    @Override
    public boolean refusedForCertain(Exception error) {
        return error instanceof Abandoned;
    }

    @Override
    public void settleInFlight(Duration timeout) {
        // commits run in lanes and are waited for there: none is in flight on the consumer thread
    }

    @Override
    public void release(Collection<TopicPartition> partitions, boolean lost) {
        for (TopicPartition tp : partitions) {
            PartitionTransaction tx = transactions.remove(tp);
            if (tx != null && abandoned) {
                tx.letGo(); // at once, in the background: a close joins the I/O thread, which may be stuck
            } else if (tx != null) {
                // after a revoke the last commit closed the transaction; after a loss an open one is aborted by the
                // next owner's claim (or times out), so nothing is worth waiting for
                tx.close(lost ? Duration.ZERO : Duration.ofSeconds(1));
            }
        }
    }

    /** Whether a lane waits on the target in a commit now, for a {@link TargetReach}; from any thread. */
    public boolean committing() {
        return committing.get() > 0;
    }

    /** The metrics of each partition's producer now (live views), for a {@link TargetReach}; from any thread. */
    public List<Map<MetricName, ? extends Metric>> producerMetrics() {
        return transactions.values().stream().<Map<MetricName, ? extends Metric>>map(tx -> tx.producer.metrics())
                .toList();
    }

    /** The transactional id of each claimed partition's producer now, for a {@link TargetRoles}; from any thread. */
    public Map<TopicPartition, String> transactionalIds() {
        Map<TopicPartition, String> ids = new HashMap<>();
        transactions.keySet().forEach(source -> ids.put(source, transactionalId(source)));
        return ids;
    }

    /**
     * The claimed partitions whose commit waits on the target now, with since when (nanos), for a
     * {@link TargetBrokers}; from any thread.
     */
    public Map<TopicPartition, Long> commitsWaiting() {
        Map<TopicPartition, Long> waiting = new HashMap<>();
        transactions.forEach((source, tx) -> {
            long since = tx.committingSince;
            if (since != 0) {
                waiting.put(source, since);
            }
        });
        return waiting;
    }

    /**
     * No commit or send starts from now on, and each producer is closed at once, in the background: a send waiting
     * for the target's metadata wakes, and open transactions are aborted by the next owner's claim (or time out), as
     * after a loss. A producer whose lane is inside a commit is closed by that lane as the commit returns: a producer
     * closed under a commit's feet can leave it waiting {@code max.block.ms} for an answer that never comes (seen in
     * CI: a mirror stopped for lost source records took 60 s to end).
     */
    @Override
    public void abandon() {
        abandoned = true;
        transactions.values().forEach(PartitionTransaction::letGo);
    }

    @Override
    public void close() {
        release(Set.copyOf(transactions.keySet()), false);
        progressReader.close(Duration.ofSeconds(5));
        synchronized (this) {
            if (progressAdmin != null) {
                progressAdmin.close(Duration.ofSeconds(5));
            }
        }
    }

    private String transactionalId(TopicPartition source) {
        return transactionalIdPrefix + "-" + source.topic() + "-" + source.partition();
    }

    /**
     * One source partition's producer and whether a transaction is open; used by the partition's lane only, but for
     * {@link #letGo}, which any thread may call, and which the lane completes when a commit is under way.
     */
    private final class PartitionTransaction implements Sender {

        final KafkaProducer<byte[], byte[]> producer;
        private boolean open;
        /** When the commit under way began (nanos), or 0: written by the lane, read by a watch on another thread. */
        volatile long committingSince;
        /** {@link Use}: whether the lane is in a commit, and whether the producer was let go of. */
        private final AtomicReference<Use> use = new AtomicReference<>(Use.IDLE);
        /**
         * The first copy that failed, or null: written on the producer's I/O thread (or in the send, when it fails
         * at once), read by the lane's next send. Past it the transaction can only abort, so its commit fails and the
         * engine stops; but each send before that commit first waited {@code max.block.ms} for a target that did not
         * answer, and a checkpoint queued behind a fetch of such sends came minutes later (a CI run of
         * MirrorTargetOutageTest: two copies every 3 s, and no failure within a minute).
         */
        private volatile Exception failedCopy;
        /** Hears each copy's outcome when the caller has no callback of its own: one object, not one per copy. */
        private final Callback failureWatch = (metadata, error) -> {
            if (error != null && failedCopy == null) {
                failedCopy = error;
            }
        };

        PartitionTransaction(String transactionalId) {
            Map<String, Object> props = new HashMap<>(producerProperties);
            props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
            props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
            props.put(ProducerConfig.ACKS_CONFIG, "all");
            this.producer = new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
        }

        /**
         * Throws at once when an earlier copy of this transaction failed (as far as this object heard: a caller's own
         * callback hears the outcomes instead, and the commit still fails on them).
         */
        @Override
        public Future<RecordMetadata> send(ProducerRecord<byte[], byte[]> record, Callback callback) {
            if (abandoned) {
                throw new Abandoned();
            }
            Exception failed = failedCopy;
            if (failed != null) {
                throw new KafkaException("an earlier copy in this transaction failed (" + ErrorWords.of(failed)
                        + "), so it can only abort; a restart copies again from the last commit", failed);
            }
            begin();
            return producer.send(record, callback == null ? failureWatch : callback);
        }

        void commit(Map<TopicPartition, OffsetAndMetadata> offsets, ConsumerGroupMetadata group) {
            if (abandoned || !use.compareAndSet(Use.IDLE, Use.COMMITTING)) {
                throw new Abandoned(); // its producer is closed or closing: nothing would answer
            }
            try {
                if (abandoned) {
                    throw new Abandoned(); // came as this commit was marked, before anything was sent
                }
                committing.incrementAndGet();
                committingSince = System.nanoTime();
                try {
                    begin(); // a commit with no record still moves the progress (markers, aborted source records)
                    producer.sendOffsetsToTransaction(offsets, group);
                    CrashPoints.reach(CrashPoints.TRANSACTION_BEFORE_COMMIT);
                    producer.commitTransaction();
                    open = false;
                } finally {
                    committingSince = 0;
                    committing.decrementAndGet();
                }
            } finally {
                if (!use.compareAndSet(Use.COMMITTING, Use.IDLE)) {
                    // let go of while this commit was under way: now nothing waits on the producer
                    use.set(Use.LET_GO);
                    ProducerCloser.closeAtOnce(List.of(producer), "sluice-abandon-" + transactionalIdPrefix);
                }
            }
        }

        /**
         * Closes the producer at once in the background, or has the lane do it as its commit under way returns; once.
         * Any thread.
         */
        void letGo() {
            while (true) {
                Use now = use.get();
                if (now == Use.IDLE && use.compareAndSet(Use.IDLE, Use.LET_GO)) {
                    ProducerCloser.closeAtOnce(List.of(producer), "sluice-abandon-" + transactionalIdPrefix);
                    return;
                }
                if (now == Use.COMMITTING && use.compareAndSet(Use.COMMITTING, Use.LET_GO_AFTER_COMMIT)) {
                    return;
                }
                if (now == Use.LET_GO || now == Use.LET_GO_AFTER_COMMIT) {
                    return;
                }
            }
        }

        private void begin() {
            if (!open) {
                producer.beginTransaction();
                open = true;
            }
        }

        /**
         * Closes the producer within {@code timeout}, or, when a commit is under way on it (a revoked partition's
         * last commit that overran the drain), has the lane close it as that commit returns: closed under the commit,
         * the commit would wait {@code max.block.ms} for nothing.
         */
        void close(Duration timeout) {
            if (use.compareAndSet(Use.IDLE, Use.LET_GO)) {
                producer.close(timeout);
            } else {
                letGo();
            }
        }
    }

    /** A partition producer's use, between its lane's commits and {@link PartitionTransaction#letGo}. */
    private enum Use {
        IDLE, COMMITTING, LET_GO_AFTER_COMMIT, LET_GO
    }

    /** A commit or send after {@link #abandon}: refused here, never sent. */
    private static final class Abandoned extends IllegalStateException {
        Abandoned() {
            super("not committed: the engine stopped because of an earlier failure, and a restart goes on from the "
                    + "last commit");
        }
    }

    /** Where the target cluster is and how the mirror's transactions are named. */
    public static final class Builder {
        private final Map<String, Object> producerProperties = new HashMap<>();
        private String transactionalIdPrefix;
        private String progressGroup;
        private Function<TopicPartition, TopicPartition> progressPartition = Function.identity();
        private Duration recommitInterval = Duration.ofHours(1);

        private Builder() {
        }

        /**
         * How often an idle partition's progress is committed again (default 1 hour): the progress group never has
         * members, so the target's group coordinator deletes each of its offsets {@code offsets.retention.minutes}
         * (7 days by default) after it was last committed, and a partition without new records for that long would
         * lose its progress and be copied again from the start.
         */
        public Builder recommit(Duration every) {
            this.recommitInterval = Objects.requireNonNull(every, "every");
            return this;
        }

        /**
         * Which partition of the target cluster a source partition's progress is stored under; it must exist there
         * (the group coordinator refuses offsets of an unknown topic). Default: the source partition's own name, right
         * for a mirror that keeps topic names; a mirror that renames maps to the target topic's partition.
         */
        public Builder progressPartition(Function<TopicPartition, TopicPartition> mapping) {
            this.progressPartition = Objects.requireNonNull(mapping, "mapping");
            return this;
        }

        /** Producer settings for the target cluster: {@code bootstrap.servers}, security, batching. */
        public Builder producerProperties(Map<String, ?> properties) {
            producerProperties.putAll(properties);
            return this;
        }

        /**
         * The start of every transactional ID ({@code <prefix>-<topic>-<partition>}): the same on every instance of
         * one mirror and after restarts, and different for every mirror into the same target cluster.
         */
        public Builder transactionalIdPrefix(String prefix) {
            this.transactionalIdPrefix = prefix;
            return this;
        }

        /** The group in the target cluster whose offsets hold the source offsets copied so far. */
        public Builder progressGroup(String group) {
            this.progressGroup = group;
            return this;
        }

        public TargetTransactionCommit build() {
            require(producerProperties.get(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG) != null,
                    "bootstrap.servers of the target cluster is required");
            require(transactionalIdPrefix != null && !transactionalIdPrefix.isBlank(),
                    "a transactional ID prefix is required: one per mirror, the same on all its instances");
            require(!recommitInterval.isNegative() && !recommitInterval.isZero(),
                    "the recommit interval must be positive");
            require(progressGroup != null && !progressGroup.isBlank(),
                    "a progress group is required: where the target cluster keeps the source offsets copied");
            for (String managed : new String[] {ProducerConfig.TRANSACTIONAL_ID_CONFIG,
                    ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, ProducerConfig.ACKS_CONFIG}) {
                require(!producerProperties.containsKey(managed), managed + " is managed by the commit point; remove it");
            }
            return new TargetTransactionCommit(this);
        }

        private static void require(boolean condition, String message) {
            if (!condition) {
                throw new IllegalArgumentException(message);
            }
        }
    }
}
