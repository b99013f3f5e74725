package io.sluice.core.internal.consumer;

import static io.sluice.core.internal.EngineLog.LOG;

import io.sluice.core.EngineStats;
import io.sluice.core.Health;
import io.sluice.core.PartitionStats;
import io.sluice.core.commit.CommitPoint;
import io.sluice.core.commit.BrokerWatch;
import io.sluice.core.commit.LeaderWatch;
import io.sluice.core.crash.CrashPoints;
import io.sluice.core.internal.budget.MemoryBudget;
import io.sluice.core.internal.failure.RecordProcessor;
import io.sluice.core.internal.lane.LaneRouter;
import io.sluice.core.internal.lane.WorkerPool;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetOutOfRangeException;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;

/**
 * The consumer thread: the only thread that touches the {@link Consumer}, the ledgers and the budget. Each turn it
 * takes the workers' completions, applies pauses, polls, hands the records to their lanes and commits; partitions
 * come and go through {@link Assignments}. It never runs user code and never blocks on a full budget (it pauses
 * partitions and keeps polling), so a slow handler cannot make the group think this member is dead.
 *
 * <p>Threading: {@link #run} on its own thread. {@link #requestClose}, {@link #requestPause} and the getters may be
 * called from any thread; they communicate through volatile fields, concurrent collections and
 * {@link Consumer#wakeup()}.
 */
public final class ConsumerLoop implements Runnable {

    private static final Duration IDLE_POLL = Duration.ofMillis(50);
    private static final Duration BUSY_POLL = Duration.ofMillis(5);
    /** How long a close waits for its workers once the drain gave up on the sink ({@link DrainWatch}). */
    private static final Duration GIVEN_UP_WAIT = Duration.ofSeconds(1);
    /**
     * How long the consumer's close may take when this member holds no partition: nothing is left to commit, and the
     * close waits for the requests in flight, among them a join the coordinator holds until the group's earlier
     * members rejoin or time out (after a kill -9, up to their session timeout): a stop asked for then took the whole
     * drain timeout, 30 s, with nothing to drain (a new user's run).
     */
    private static final Duration NOTHING_HELD_CLOSE = Duration.ofSeconds(1);

    /**
     * What the loop itself needs to know.
     *
     * @param untilEnd whether the run stops at the end offsets seen at start
     * @param source   the source cluster as the user named it (its bootstrap servers), for what the log says of it
     * @param isolation the consumer's isolation level, which the ends of paused partitions are asked with
     * @param hasRack   whether the consumer has a rack ({@code client.rack}): a follower may then serve its fetches
     */
    public record Settings(Subscription subscription, boolean untilEnd, Duration drainTimeout, String source,
            org.apache.kafka.common.IsolationLevel isolation, boolean hasRack) {
    }

    private final Settings settings;
    private final StartSettings start;
    private final Consumer<byte[], byte[]> consumer;
    private final Admin admin;
    private final WorkerPool pool;
    private final MemoryBudget budget;
    private final CommitPoint commitPoint;
    /** The sink the records go to, or null when a handler takes them. */
    private final io.sluice.core.sink.Sink sink;
    /** Whether what was not committed was let go of ({@link #abandonUncommitted}). */
    private final AtomicBoolean abandoned = new AtomicBoolean();
    private final CommitPolicy commits;
    private final TopicIds topicIds;
    private final EngineFailure failure;
    private final AssignedPartitions partitions = new AssignedPartitions();
    private final FetchPauses pauses;
    private final Completions completions;
    private final PartitionFactory factory;
    private final LaneRouter router;
    private final OutOfRange outOfRange;
    /** The partitions stopped at a gap; read from any thread. */
    private final Gaps gaps = new Gaps();
    private final Gauges gauges;
    private final SourceReach reach;
    /** The drain's watch on a sink that cannot finish. */
    private final DrainWatch watch;
    /** The assigned partitions without a leader while the cluster answers: the source watch does not hear of them. */
    private final LeaderWatch leaders;
    /** The source brokers that stopped answering while others answer: their partitions keep a leader, unread. */
    private final BrokerWatch brokers;
    /** What {@link #brokers} asks for at a look; made once, not per turn of the loop. */
    private final Supplier<Set<TopicPartition>> fetchingNow = this::fetching;
    private final AtomicReference<Health> health = new AtomicReference<>(Health.STARTING);
    private volatile boolean closing;
    /** Set when {@link #run} starts; read by the getters, so volatile. */
    private volatile Dispatcher dispatcher;
    private volatile Assignments assignments;

    /**
     * @param sink null when a handler runs: then progress is committed from the ledger
     */
    public ConsumerLoop(Settings settings, EngineParts parts, io.sluice.core.sink.Sink sink) {
        this.settings = settings;
        this.start = parts.start();
        this.consumer = parts.consumer();
        this.admin = parts.admin();
        this.pool = parts.pool();
        this.budget = parts.budget();
        this.router = parts.router();
        this.failure = parts.failure();
        this.commitPoint = parts.commitPoint();
        this.sink = sink;
        this.topicIds = new TopicIds(admin, settings.drainTimeout(), parts.topicIds());
        this.watch = new DrainWatch(sink, failure);
        this.commits = sink == null
                ? new LedgerCommits(commitPoint, parts.commitSettings(), parts.metrics().commitLatency())
                : commitPoint.commitsInLane()
                        ? new LaneCommits(sink, commitPoint, parts.commitSettings(), failure::fail,
                                parts.metrics().commitLatency())
                        : new SinkCommits(sink, commitPoint, parts.commitSettings(), failure::fail, partitions::get,
                                parts.metrics().commitLatency());
        this.pauses = new FetchPauses(consumer, partitions, parts.readRate());
        this.completions = new Completions(partitions, budget, commits, pauses);
        this.factory = new PartitionFactory(router.lanesPerPartition(), start.window(), pool, parts.invoker(),
                completions.queue(), parts.inFlight(), parts.metrics().processing(), budget.partitionFetchBytes());
        this.outOfRange = new OutOfRange(consumer, partitions, start.outOfRange(), settings.drainTimeout(), failure,
                pauses, gaps);
        this.gauges = new Gauges(consumer, partitions, budget, commits, parts.metrics(), parts.stuckThreshold(),
                new PausedEnds(admin, settings.isolation(), PausedEnds.EVERY));
        this.reach = new SourceReach(consumer.metrics(), settings.source(), SourceReach.GRACE,
                () -> assignments == null || !assignments.everAssigned());
        this.leaders = new LeaderWatch(consumer, SourceReach.GRACE, new LeaderWatch.Words() {
            @Override
            public void noLeader(TopicPartition tp, long seconds) {
                LOG.warn("source partition {} has no leader in its cluster ({}) for {} s: the brokers that hold it "
                        + "are down, or it lost every in-sync replica. It is not read and its lag is as of its last "
                        + "answer; the other partitions go on, and it goes on when it has a leader again", tp,
                        settings.source(), seconds);
            }

            @Override
            public void leaderAgain(TopicPartition tp, long seconds) {
                LOG.info("source partition {} has a leader again, after {} s; reading it goes on", tp, seconds);
            }
        });
        this.brokers = new BrokerWatch(consumer, SourceReach.GRACE, settings.hasRack(), new BrokerWatch.Words() {
            @Override
            public void silent(Node broker, Set<TopicPartition> led, long seconds) {
                LOG.warn("source partition{} {} not read: broker {} ({}:{}), which {} read from, has not answered "
                        + "for {} s while the cluster's other brokers do. A network fault between this process and "
                        + "that broker, or the broker hangs; {} lag is as of the last answer, the other partitions go "
                        + "on, and reading {} resumes when it answers", led.size() == 1 ? "" : "s", led,
                        broker.id(), broker.host(), broker.port(), led.size() == 1 ? "it is" : "they are", seconds,
                        led.size() == 1 ? "its" : "their", led.size() == 1 ? "it" : "them");
            }

            @Override
            public void answersAgain(Node broker, long seconds) {
                LOG.info("source broker {} answers again, after {} s; reading its partitions goes on", broker.id(),
                        seconds);
            }

            @Override
            public void noLongerRead(Node broker, long seconds) {
                LOG.info("nothing is read from source broker {} here any more (its partitions were paused, revoked or "
                        + "moved), after {} s without an answer from it: its silence is no longer watched",
                        broker.id(), seconds);
            }
        });
    }

    @Override
    public void run() {
        try {
            RunEnd runEnd = settings.untilEnd()
                    ? RunEnd.capture(consumer, settings.subscription(), commitPoint, settings.drainTimeout(), admin)
                    : RunEnd.unbounded();
            if (!settings.untilEnd()) {
                // a bounded run refuses what is missing (RunEnd); an unbounded one waits for it, and says so
                settings.subscription().warnIfMissing(admin);
            }
            Dispatcher dispatch = new Dispatcher(consumer, partitions, router, budget, commits, pauses, runEnd);
            dispatcher = dispatch;
            assignments = new Assignments(consumer, start, commitPoint, commits, topicIds, partitions, factory,
                    completions, pauses, budget, runEnd, gaps);
            settings.subscription().subscribe(consumer, assignments);
            health.set(Health.RUNNING);
            while (!closing && failure.get() == null) {
                completions.take();
                pauses.applyOperatorRequests();
                pauses.limitReadRate();
                ConsumerRecords<byte[], byte[]> records;
                try {
                    boolean hurry = pauses.anyWaitingOnCompletions() || completions.waiting();
                    records = consumer.poll(hurry ? BUSY_POLL : IDLE_POLL);
                } catch (WakeupException e) {
                    continue;
                } catch (OffsetOutOfRangeException e) {
                    outOfRange.handle(e);
                    continue;
                }
                pauses.fetched(records);
                dispatch.dispatch(records);
                if (!records.isEmpty()) {
                    CrashPoints.reach(CrashPoints.AFTER_DISPATCH);
                }
                dispatch.advancePositions();
                commits.maybeCommit(partitions.all());
                gauges.publish();
                long now = System.nanoTime();
                reach.polled(now);
                reach.observe(now);
                leaders.look(now, partitions.asMap().keySet());
                brokers.look(now, fetchingNow);
                if (runEnd.reached(partitions.asMap(), System.nanoTime())) {
                    Map<TopicPartition, String> stopped = gaps.now();
                    if (stopped.isEmpty()) {
                        LOG.info("every partition is done up to the end offsets seen at start; stopping");
                    } else {
                        LOG.info("every partition here is done up to the end offsets seen at start, or stopped at a "
                                + "gap ({}); stopping without waiting for other instances' partitions", stopped.keySet());
                    }
                    closing = true;
                } else {
                    // another instance's partitions are not done yet, and it waits for ours as we wait for its: what
                    // a sink holds of a partition done up to its end must be committed now, not at its age
                    runEnd.doneHere(partitions.all()).forEach(commits::relieve);
                }
            }
        } catch (Throwable t) {
            failure.fail(unwrapListenerError(t));
        } finally {
            drainAndClose();
        }
    }

    /** The consumer wraps what a rebalance listener throws; the engine's own message is the one to show. */
    private static Throwable unwrapListenerError(Throwable t) {
        if (t instanceof KafkaException && t.getCause() != null
                && String.valueOf(t.getMessage()).startsWith("User rebalance callback")) {
            return t.getCause();
        }
        return t;
    }

    public Health health() {
        return health.get();
    }

    /** Counters and gauges; the gauges are as of the consumer thread's last loop. */
    public EngineStats stats(RecordProcessor.Counts attempts, long timeouts) {
        Dispatcher d = dispatcher;
        Assignments a = assignments;
        CommitCounts c = commits.counts();
        return new EngineStats(d == null ? 0 : d.consumed(), completions.completed(), attempts.failedAttempts(),
                attempts.retried(), attempts.skipped(), attempts.deadLettered(), timeouts, a == null ? 0 : a.revoked(),
                a == null ? 0 : a.lost(), c.commits(), c.failures(), gauges.queuedRecords(), gauges.queuedBytes(),
                budget.total(), gauges.inFlightRecords(), gauges.pausedPartitions(), gauges.stuckPartitions(),
                d == null ? 0 : d.consumedBytes());
    }

    /** How long the consumer has heard nothing from the source cluster, when that is its grace period or more. */
    public Optional<Duration> sourceUnreachable() {
        return reach.unreachableFor(System.nanoTime());
    }

    /** The assigned partitions without a leader in the source cluster for 15 s or more, with how long. */
    public Map<TopicPartition, Duration> partitionsWithoutLeader() {
        return leaders.withoutLeader();
    }

    /** The source brokers that have not answered for 15 s or more while others answer, by id, with how long. */
    public Map<Integer, Duration> brokersUnanswered() {
        return brokers.silentBrokers();
    }

    /** The partitions read from those brokers, with the broker's id. */
    public Map<TopicPartition, Integer> partitionsOfUnansweredBrokers() {
        return brokers.partitionsOfSilentBrokers();
    }

    /** The assigned partitions the consumer fetches now (not paused); the consumer thread's. */
    private Set<TopicPartition> fetching() {
        Set<TopicPartition> fetching = new HashSet<>(consumer.assignment());
        fetching.removeAll(consumer.paused());
        return fetching;
    }

    /** The partitions stopped at a gap here, with what was lost in words. */
    public Map<TopicPartition, String> partitionsStoppedAtGap() {
        return gaps.now();
    }

    /** Each assigned partition as of the last second. */
    public List<PartitionStats> partitionStats() {
        return gauges.partitionStats();
    }

    public int subscribedPartitions() {
        return gauges.subscribedPartitions();
    }

    /** Begins a clean shutdown: stop fetching, finish what is in flight, commit, close. */
    public void requestClose() {
        closing = true;
        consumer.wakeup();
    }

    /** An operator's pause ({@code paused}) or resume of a partition; applied on the consumer thread. */
    public void requestPause(org.apache.kafka.common.TopicPartition partition, boolean paused) {
        pauses.request(partition, paused);
    }

    /**
     * A failed engine commits nothing more: what waits on another cluster for a commit that will not come is let go,
     * so that the drain does not wait on a broker that does not answer (measured: a mirror whose target broker was cut
     * off took 146 s to close after its failure, its lanes waiting for the producers' delivery timeout; a clean close
     * meanwhile took 100 s, each of its last calls to the stuck partition's lane waiting out the drain timeout). Once,
     * on the consumer thread or the one that reported the failure.
     */
    private void abandonUncommitted() {
        if (!abandoned.compareAndSet(false, true)) {
            return;
        }
        try {
            if (sink != null) {
                sink.abandon();
            }
        } catch (Throwable t) {
            LOG.warn("the sink letting go of what was not committed: {}", t.toString());
        }
        try {
            commitPoint.abandon();
        } catch (Throwable t) {
            LOG.warn("{} letting go of what was not committed: {}", commitPoint.describe(), t.toString());
        }
    }

    private void drainAndClose() {
        health.set(Health.DRAINING);
        boolean holdsNothing = partitions.all().isEmpty();
        try {
            // a failure before or during the drain (a last commit that overran its timeout) lets go of the rest;
            // armed first, so that a failure of the steps below is one too
            failure.whenFailed(this::abandonUncommitted);
            // a sink that cannot finish (its destination does not answer) is not waited for, step after step
            commits.watchWaits(watch::lookAndGiveUp);
            watch.arm();
            Collection<PartitionState> all = new ArrayList<>(partitions.all());
            all.forEach(PartitionState::close);
            pauses.pauseAll();
            List<PartitionState> stuck = completions.awaitIdle(all, settings.drainTimeout().toNanos(),
                    watch::lookAndGiveUp);
            if (!stuck.isEmpty() && !watch.gaveUp()) {
                LOG.warn("records still running after {} s in {}; they stay uncommitted and will be processed again",
                        settings.drainTimeout().toSeconds(), stuck.stream().map(p -> p.partition.toString()).toList());
            }
            CrashPoints.reach(CrashPoints.CLOSE_BEFORE_COMMIT);
            commits.commitFinal(all);
            CrashPoints.reach(CrashPoints.CLOSE_AFTER_COMMIT);
            reach.observe(System.nanoTime()); // an outage the last commit rode out ends in the log
            gauges.publishNow();
            // consumer.close() revokes the assignment through the listener: there must be nothing left to commit
            partitions.clear();
            commitPoint.release(all.stream().map(p -> p.partition).toList(), false);
            // what came before the gaps and the other partitions' progress are committed: now the engine fails
            gaps.loss().ifPresent(failure::recordCommitted);
        } catch (Throwable t) {
            failure.record(t);
            LOG.error("could not drain and commit cleanly; uncommitted records will be processed again", t);
        } finally {
            reach.closing();
            leaders.closing();
            brokers.closing();
            try {
                consumer.close(CloseOptions.timeout(holdsNothing ? NOTHING_HELD_CLOSE : settings.drainTimeout()));
            } catch (Throwable t) {
                LOG.warn("closing the consumer: {}", t.toString());
            }
            try {
                commitPoint.close();
            } catch (Throwable t) {
                LOG.warn("closing {}: {}", commitPoint.describe(), t.toString());
            }
            // given up on the sink, a lane may be inside a commit the destination never answers (a commit under way
            // is not cut short by the abandon): it ends at its own timeout, and the close does not wait for it
            pool.shutdown(watch.gaveUp() ? GIVEN_UP_WAIT.toMillis() : settings.drainTimeout().toMillis());
            topicIds.close();
            health.set(failure.get() == null ? Health.STOPPED : Health.FAILED);
        }
    }
}
