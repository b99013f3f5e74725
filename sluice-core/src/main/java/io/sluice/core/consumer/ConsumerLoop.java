package io.sluice.core.consumer;

import io.sluice.core.CrashPoints;
import io.sluice.core.EngineConfig;
import io.sluice.core.EngineStats;
import io.sluice.core.PartitionStats;
import io.sluice.core.metrics.EngineMetrics;
import io.sluice.core.failure.RecordProcessor;
import io.sluice.core.Health;
import io.sluice.core.OutOfRangePolicy;
import io.sluice.core.StartPosition;
import io.sluice.core.budget.MemoryBudget;
import io.sluice.core.lane.Invoker;
import io.sluice.core.lane.LaneRouter;
import io.sluice.core.lane.RecordSize;
import io.sluice.core.lane.WorkerPool;
import io.sluice.core.ledger.CompletionMap;
import io.sluice.core.ledger.PartitionLedger;
import io.sluice.core.sink.Sink;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetOutOfRangeException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The consumer thread: the only thread that touches the {@link Consumer}, the ledgers and the budget. It polls,
 * routes records into lanes, takes completions from the workers as messages, pauses and resumes partitions, and
 * commits. It never runs user code and never blocks on a full budget (it pauses partitions and keeps polling), so a
 * slow handler cannot make the group think this member is dead.
 *
 * <p>Threading: {@link #run} on its own thread. {@link #requestClose}, {@link #fail}, {@link #requestPause} and the
 * getters may be called from any thread; they communicate through volatile fields, concurrent collections and
 * {@link Consumer#wakeup()}.
 */
public final class ConsumerLoop implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(ConsumerLoop.class);
    private static final Duration IDLE_POLL = Duration.ofMillis(50);
    private static final Duration BUSY_POLL = Duration.ofMillis(5);
    /** Pauses that no completion lifts; the loop need not poll faster for them. */
    private static final java.util.EnumSet<PauseReason> LASTING_PAUSES = java.util.EnumSet.of(PauseReason.OPERATOR,
            PauseReason.END);

    private final EngineConfig config;
    private final Consumer<byte[], byte[]> consumer;
    private final LaneRouter router;
    private final WorkerPool pool;
    private final Invoker invoker;
    private final Semaphore inFlight;
    private final MemoryBudget budget;
    private final CommitPolicy commits;
    private final TopicIds topicIds;
    private final Admin admin;
    /** Null without a read-rate limit. */
    private final ReadRateLimit readRate;
    /** Null unless the run stops at the end offsets seen at start; read at the start of {@link #run}. */
    private RunEnd runEnd;
    private final Map<TopicPartition, PartitionState> partitions = new HashMap<>();
    private final ConcurrentLinkedQueue<Completion> completions = new ConcurrentLinkedQueue<>();
    private final Set<TopicPartition> operatorPaused = ConcurrentHashMap.newKeySet();
    private final AtomicReference<Health> health = new AtomicReference<>(Health.STARTING);
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private volatile boolean closing;
    private volatile boolean operatorPausesChanged;

    private final LongAdder consumed = new LongAdder();
    private final LongAdder consumedBytes = new LongAdder();
    private final LongAdder completed = new LongAdder();
    private final LongAdder revoked = new LongAdder();
    private final LongAdder lost = new LongAdder();
    final EngineMetrics metrics;
    private volatile long queuedBytes;
    private volatile long queuedRecords;
    private volatile int pausedPartitions;
    private volatile int stuckPartitions;
    private volatile long inFlightRecords;
    private volatile List<PartitionStats> partitionStats = List.of();
    private long nextPartitionStats;
    private boolean assignmentChanged;

    /**
     * @param inFlight a limit on records in flight for asynchronous handlers, or null
     * @param sink     the sink records go to, or null when {@code invoker} runs a handler
     */
    public ConsumerLoop(EngineConfig config, Consumer<byte[], byte[]> consumer, LaneRouter router, WorkerPool pool,
            Invoker invoker, Semaphore inFlight, MemoryBudget budget, Sink sink, EngineMetrics metrics, Admin admin) {
        this.config = config;
        this.consumer = consumer;
        this.router = router;
        this.pool = pool;
        this.invoker = invoker;
        this.inFlight = inFlight;
        this.budget = budget;
        this.metrics = metrics;
        this.topicIds = new TopicIds(admin, config.drainTimeout());
        this.admin = admin;
        this.readRate = config.maxReadBytesPerSecond() > 0
                ? new ReadRateLimit(config.maxReadBytesPerSecond(), System.nanoTime()) : null;
        this.commits = sink == null
                ? new LedgerCommits(consumer, config.commitInterval(), config.drainTimeout(), metrics.commitLatency())
                : new SinkCommits(sink, consumer, config.commitInterval(), config.drainTimeout(), this::fail,
                        partitions::get, metrics.commitLatency());
    }

    @Override
    public void run() {
        try {
            if (config.untilEnd()) {
                runEnd = RunEnd.capture(consumer, config, admin);
            }
            consumer.subscribe(config.topics(), new Rebalances());
            health.set(Health.RUNNING);
            while (!closing && failure.get() == null) {
                takeCompletions();
                applyOperatorPauses();
                limitReadRate();
                ConsumerRecords<byte[], byte[]> records;
                try {
                    records = consumer.poll(anyPaused() ? BUSY_POLL : IDLE_POLL);
                } catch (WakeupException e) {
                    continue;
                } catch (OffsetOutOfRangeException e) {
                    outOfRange(e);
                    continue;
                }
                if (readRate != null) {
                    readRate.fetched(records, System.nanoTime());
                }
                dispatch(records);
                if (!records.isEmpty()) {
                    CrashPoints.reach(CrashPoints.AFTER_DISPATCH);
                }
                advancePositions();
                commits.maybeCommit(partitions.values());
                publishGauges();
                if (runEnd != null && runEnd.reached(partitions, System.nanoTime())) {
                    LOG.info("every partition is done up to the end offsets seen at start; stopping");
                    closing = true;
                }
            }
        } catch (Throwable t) {
            fail(unwrapListenerError(t));
        } finally {
            drainAndClose();
        }
    }

    /** The consumer wraps what a rebalance listener throws; the engine's own message is the one to show. */
    private static Throwable unwrapListenerError(Throwable t) {
        if (t instanceof org.apache.kafka.common.KafkaException && t.getCause() != null
                && String.valueOf(t.getMessage()).startsWith("User rebalance callback")) {
            return t.getCause();
        }
        return t;
    }

    public Health health() {
        return health.get();
    }

    /** Counters and gauges; the gauges are as of the consumer thread's last loop. */
    public EngineStats stats(RecordProcessor processor, WorkerPool pool) {
        return new EngineStats(consumed.sum(), completed.sum(), processor.failedAttempts.sum(), processor.retried.sum(),
                processor.skipped.sum(), processor.deadLettered.sum(), pool.timeouts.sum(), revoked.sum(), lost.sum(),
                commits.counts().commits.sum(), commits.counts().failures.sum(), queuedRecords, queuedBytes, budget.total(), inFlightRecords, pausedPartitions,
                stuckPartitions, consumedBytes.sum());
    }

    /** Each assigned partition as of the last second. */
    public List<PartitionStats> partitionStats() {
        return partitionStats;
    }

    private void publishGauges() {
        long now = System.nanoTime();
        long held = budget.used();
        long running = 0;
        long pending = 0;
        int paused = 0;
        int stuck = 0;
        for (PartitionState p : partitions.values()) {
            held += commits.heldBytes(p);
            running += p.running.get();
            pending += p.ledger.pendingCount();
            if (p.ledger.watermark() != p.watermarkSeen || p.ledger.pendingCount() == 0) {
                p.watermarkSeen = p.ledger.watermark();
                p.watermarkSinceNanos = now;
            } else if (now - p.watermarkSinceNanos > config.stuckThreshold().toNanos()) {
                stuck++;
            }
            if (!p.pauses.isEmpty()) {
                paused++;
            }
        }
        queuedBytes = held;
        queuedRecords = pending;
        inFlightRecords = running;
        pausedPartitions = paused;
        stuckPartitions = stuck;
        if (now - nextPartitionStats >= 0 || assignmentChanged) {
            assignmentChanged = false;
            nextPartitionStats = now + 1_000_000_000L;
            List<PartitionStats> stats = new ArrayList<>(partitions.size());
            for (PartitionState p : partitions.values()) {
                stats.add(stats(p, now));
            }
            partitionStats = List.copyOf(stats);
            metrics.partitions(partitionStats);
        }
    }

    private PartitionStats stats(PartitionState p, long now) {
        long watermark = p.ledger.watermark();
        java.util.OptionalLong behindPosition = consumer.currentLag(p.partition);
        long lag = behindPosition.isPresent() ? behindPosition.getAsLong() + (p.ledger.end() - watermark) : -1;
        long stuckMillis = p.ledger.pendingCount() > 0 && p.ledger.watermark() == p.watermarkSeen
                ? (now - p.watermarkSinceNanos) / 1_000_000 : 0;
        return new PartitionStats(p.partition, p.lastCommitted == null ? -1 : p.lastCommitted.offset(), watermark,
                p.ledger.end() - watermark, lag, stuckMillis, !p.pauses.isEmpty());
    }

    public Throwable failure() {
        return failure.get();
    }

    /** Begins a clean shutdown: stop fetching, finish what is in flight, commit, close. */
    public void requestClose() {
        closing = true;
        consumer.wakeup();
    }

    /** Stops the engine because of {@code error}; the first error wins. */
    public void fail(Throwable error) {
        if (failure.compareAndSet(null, error)) {
            LOG.error("engine stopping: {}", error.toString(), error);
        }
        consumer.wakeup();
    }

    /** An operator's pause ({@code paused}) or resume of a partition; applied on the consumer thread. */
    public void requestPause(TopicPartition partition, boolean paused) {
        if (paused) {
            operatorPaused.add(partition);
        } else {
            operatorPaused.remove(partition);
        }
        operatorPausesChanged = true;
    }

    private void dispatch(ConsumerRecords<byte[], byte[]> records) {
        for (TopicPartition tp : records.partitions()) {
            PartitionState p = partitions.get(tp);
            if (p == null || !p.isOpen()) {
                continue;
            }
            int unordered = 0;
            long dispatched = 0;
            long dispatchedBytes = 0; // counted once per fetch: an atomic add per record shows in profiles
            for (ConsumerRecord<byte[], byte[]> record : records.records(tp)) {
                long offset = record.offset();
                if (runEnd != null && offset >= runEnd.endOf(tp)) {
                    // past the end seen at start: this run never processes it
                    consumer.seek(tp, offset);
                    pause(p, PauseReason.END);
                    break;
                }
                if (p.alreadyComplete.isComplete(offset)) {
                    continue; // done by an earlier owner: the completion map says so
                }
                if (!p.ledger.admits(offset)) {
                    // a full window ahead of the oldest unfinished record: fetch it again later
                    consumer.seek(tp, offset);
                    pause(p, PauseReason.WINDOW);
                    break;
                }
                long bytes = RecordSize.of(record);
                p.ledger.dispatched(offset);
                p.bufferedBytes += bytes;
                budget.charge(bytes);
                dispatched++;
                dispatchedBytes += bytes;
                int lane = router.laneOf(record);
                if (lane == LaneRouter.UNORDERED_LANE) {
                    p.addUnordered(record);
                    unordered++;
                } else {
                    p.lane(lane).add(record);
                }
            }
            consumed.add(dispatched);
            consumedBytes.add(dispatchedBytes);
            if (unordered > 0) {
                p.wakeLanes(unordered);
            }
            if (budget.atShare(p.bufferedBytes, commits.heldBytes(p))) {
                pause(p, PauseReason.BUDGET);
            }
        }
    }

    /** The consumer's position covers markers and aborted records the application never sees. */
    private void advancePositions() {
        for (PartitionState p : partitions.values()) {
            if (p.isOpen()) {
                p.ledger.positionAt(consumer.position(p.partition));
            }
        }
    }

    private void takeCompletions() {
        Completion c;
        while ((c = completions.poll()) != null) {
            PartitionState p = c.partition();
            if (partitions.get(p.partition) != p) {
                continue; // from an earlier assignment of the partition: fenced
            }
            p.ledger.completed(c.offset());
            p.bufferedBytes -= c.bytes();
            budget.release(c.bytes());
            completed.increment();
            CrashPoints.reach(CrashPoints.AFTER_COMPLETION);
        }
        for (PartitionState p : partitions.values()) {
            if (p.pauses.contains(PauseReason.BUDGET)
                    && budget.belowResumeMark(p.bufferedBytes, commits.heldBytes(p))) {
                unpause(p, PauseReason.BUDGET);
            }
            if (p.pauses.contains(PauseReason.WINDOW) && p.ledger.end() - p.ledger.watermark() <= p.ledger.window() / 2) {
                unpause(p, PauseReason.WINDOW);
            }
        }
    }

    private void applyOperatorPauses() {
        if (!operatorPausesChanged) {
            return;
        }
        operatorPausesChanged = false;
        for (PartitionState p : partitions.values()) {
            if (operatorPaused.contains(p.partition)) {
                pause(p, PauseReason.OPERATOR);
            } else if (p.pauses.contains(PauseReason.OPERATOR)) {
                unpause(p, PauseReason.OPERATOR);
            }
        }
    }

    private void pause(PartitionState p, PauseReason reason) {
        if (p.pause(reason)) {
            consumer.pause(List.of(p.partition));
        }
    }

    private void unpause(PartitionState p, PauseReason reason) {
        if (p.unpause(reason)) {
            consumer.resume(List.of(p.partition));
        }
    }

    /** Pauses every partition while the run is ahead of the read-rate limit, and resumes them after. */
    private void limitReadRate() {
        if (readRate == null) {
            return;
        }
        boolean inDebt = readRate.inDebt(System.nanoTime());
        for (PartitionState p : partitions.values()) {
            if (inDebt) {
                pause(p, PauseReason.RATE);
            } else if (p.pauses.contains(PauseReason.RATE)) {
                unpause(p, PauseReason.RATE);
            }
        }
    }

    private boolean anyPaused() {
        for (PartitionState p : partitions.values()) {
            if (!LASTING_PAUSES.containsAll(p.pauses)) {
                return true;
            }
        }
        return !completions.isEmpty();
    }

    private void outOfRange(OffsetOutOfRangeException e) {
        Map<TopicPartition, Long> fetchOffsets = e.offsetOutOfRangePartitions();
        Map<TopicPartition, Long> start = consumer.beginningOffsets(fetchOffsets.keySet(), config.drainTimeout());
        Map<TopicPartition, Long> end = consumer.endOffsets(fetchOffsets.keySet(), config.drainTimeout());
        List<String> problems = new ArrayList<>();
        fetchOffsets.forEach((tp, offset) -> {
            long first = start.get(tp);
            long last = end.get(tp);
            problems.add(offset < first
                    ? tp + ": offsets " + offset + " to " + (first - 1) + " were deleted (retention or compaction) "
                            + "before they were processed; the log now starts at " + first
                    : tp + ": the position " + offset + " is beyond the end of the log (" + last + "): the topic was "
                            + "recreated or truncated");
        });
        String message = String.join("; ", problems);
        if (config.outOfRangePolicy() == OutOfRangePolicy.FAIL) {
            fail(new IllegalStateException("records lost or log reset: " + message + ". Set the out-of-range policy "
                    + "to EARLIEST or LATEST to continue anyway."));
            return;
        }
        LOG.error("continuing from the {} offset after: {}", config.outOfRangePolicy(), message);
        for (TopicPartition tp : fetchOffsets.keySet()) {
            long to = config.outOfRangePolicy() == OutOfRangePolicy.EARLIEST ? start.get(tp) : end.get(tp);
            consumer.seek(tp, to);
            PartitionState p = partitions.get(tp);
            if (p != null) {
                p.ledger.positionAt(to);
            }
        }
    }

    private void drainAndClose() {
        health.set(Health.DRAINING);
        try {
            Collection<PartitionState> all = new ArrayList<>(partitions.values());
            all.forEach(PartitionState::close);
            consumer.pause(consumer.assignment());
            awaitIdle(all);
            CrashPoints.reach(CrashPoints.CLOSE_BEFORE_COMMIT);
            commits.commitFinal(all);
            CrashPoints.reach(CrashPoints.CLOSE_AFTER_COMMIT);
            // consumer.close() revokes the assignment through the listener: there must be nothing left to commit
            partitions.clear();
        } catch (Throwable t) {
            failure.compareAndSet(null, t);
            LOG.error("could not drain and commit cleanly; uncommitted records will be processed again", t);
        } finally {
            try {
                consumer.close(org.apache.kafka.clients.consumer.CloseOptions.timeout(config.drainTimeout()));
            } catch (Throwable t) {
                LOG.warn("closing the consumer: {}", t.toString());
            }
            pool.shutdown(config.drainTimeout().toMillis());
            topicIds.close();
            health.set(failure.get() == null ? Health.STOPPED : Health.FAILED);
        }
    }

    /** Waits until no record of {@code states} is running, taking their completions meanwhile. */
    private void awaitIdle(Collection<PartitionState> states) {
        long deadline = System.nanoTime() + config.drainTimeout().toNanos();
        while (states.stream().anyMatch(p -> p.running.get() > 0) && System.nanoTime() < deadline) {
            takeCompletions();
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        takeCompletions();
        List<PartitionState> stuck = states.stream().filter(p -> p.running.get() > 0).collect(Collectors.toList());
        if (!stuck.isEmpty()) {
            LOG.warn("records still running after {} in {}; they stay uncommitted and will be processed again",
                    config.drainTimeout(), stuck);
        }
    }

    /** Runs inside {@code poll()}, on the consumer thread. */
    private final class Rebalances implements ConsumerRebalanceListener {

        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> revokedPartitions) {
            revoked.add(revokedPartitions.size());
            List<PartitionState> leaving = revokedPartitions.stream().map(partitions::get).filter(java.util.Objects::nonNull)
                    .collect(Collectors.toList());
            if (leaving.isEmpty()) {
                return;
            }
            leaving.forEach(PartitionState::close);
            awaitIdle(leaving);
            try {
                commits.commitFinal(leaving);
            } catch (RuntimeException e) {
                LOG.warn("commit on revoke of {} failed; the new owner replays from the last commit: {}",
                        revokedPartitions, e.toString());
            }
            forget(leaving);
        }

        @Override
        public void onPartitionsLost(Collection<TopicPartition> lostPartitions) {
            lost.add(lostPartitions.size());
            // another member may own them already: never commit, just stop
            List<PartitionState> gone = lostPartitions.stream().map(partitions::get).filter(java.util.Objects::nonNull)
                    .collect(Collectors.toList());
            gone.forEach(PartitionState::close);
            commits.lost(gone);
            forget(gone);
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> assigned) {
            if (assigned.isEmpty()) {
                return;
            }
            Map<TopicPartition, OffsetAndMetadata> committed = new HashMap<>(consumer.committed(Set.copyOf(assigned),
                    config.drainTimeout()));
            topicIds.refresh(assigned);
            forgetCommitsOfRecreatedTopics(committed);
            Map<TopicPartition, Long> byTime = TimestampStarts.resolve(consumer, config, assigned, committed);
            List<TopicPartition> fresh = assigned.stream()
                    .filter(tp -> committed.get(tp) == null && !byTime.containsKey(tp)).collect(Collectors.toList());
            if (!fresh.isEmpty()) {
                if (config.startPosition() == StartPosition.EARLIEST && config.outOfRangePolicy() != OutOfRangePolicy.LATEST
                        || config.outOfRangePolicy() == OutOfRangePolicy.EARLIEST) {
                    consumer.seekToBeginning(fresh);
                } else {
                    consumer.seekToEnd(fresh);
                }
            }
            for (TopicPartition tp : assigned) {
                OffsetAndMetadata oam = committed.get(tp);
                Long timeStart = byTime.get(tp);
                if (timeStart != null) {
                    consumer.seek(tp, timeStart);
                } else if (oam != null) {
                    // position known now, so reading it never blocks the loop
                    consumer.seek(tp, oam);
                }
                long start = timeStart != null ? timeStart
                        : oam != null ? oam.offset() : consumer.position(tp, config.drainTimeout());
                CompletionMap done = timeStart == null && oam != null
                        ? CommitMetadata.decode(oam.offset(), oam.metadata()) : CompletionMap.empty(start);
                PartitionState p = new PartitionState(tp, new PartitionLedger(start, config.window()), done,
                        router.lanesPerPartition(), pool, invoker, completions, inFlight, metrics.processing());
                p.topicId = topicIds.idOf(tp.topic());
                partitions.put(tp, p);
                commits.assigned(p, oam);
                if (operatorPaused.contains(tp)) {
                    pause(p, PauseReason.OPERATOR);
                }
                if (runEnd != null && start >= runEnd.endOf(tp)) {
                    pause(p, PauseReason.END);
                }
            }
            budget.partitionsAssigned(partitions.size());
            assignmentChanged = true;
        }

        /**
         * A commit made for an earlier topic of the same name must not position the new one: by default that is a
         * loud failure; with the out-of-range policy EARLIEST or LATEST, the commit is ignored and the partition
         * starts there.
         */
        private void forgetCommitsOfRecreatedTopics(Map<TopicPartition, OffsetAndMetadata> committed) {
            List<String> recreated = new ArrayList<>();
            committed.entrySet().removeIf(e -> {
                if (e.getValue() == null) {
                    return false;
                }
                var was = CommitMetadata.topicId(e.getValue().metadata());
                var now = topicIds.idOf(e.getKey().topic());
                if (was.isPresent() && !was.get().equals(now)) {
                    recreated.add(e.getKey() + " (committed at offset " + e.getValue().offset() + " for topic ID "
                            + was.get() + "; the topic's ID is now " + now + ")");
                    return true;
                }
                return false;
            });
            if (recreated.isEmpty()) {
                return;
            }
            String message = "topic deleted and created again since this group committed: " + String.join(", ",
                    recreated);
            if (config.outOfRangePolicy() == OutOfRangePolicy.FAIL) {
                throw new IllegalStateException(message + ". Its records are not the ones the commit speaks of. Set "
                        + "the out-of-range policy to EARLIEST or LATEST to start the new topic there.");
            }
            LOG.error("{}; starting from the {} offset", message, config.outOfRangePolicy());
        }

        private void forget(List<PartitionState> states) {
            for (PartitionState p : states) {
                partitions.remove(p.partition);
                budget.release(p.bufferedBytes);
            }
            budget.partitionsAssigned(partitions.size());
            assignmentChanged = true;
        }
    }
}
