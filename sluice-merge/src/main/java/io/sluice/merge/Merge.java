package io.sluice.merge;

import io.sluice.core.commit.TargetBrokers;
import io.sluice.core.commit.TargetReach;
import io.sluice.core.commit.TargetRoles;
import io.sluice.core.commit.TargetTransactionCommit;
import io.sluice.merge.commit.AcknowledgedCommit;
import io.sluice.merge.commit.MergeCommit;
import io.sluice.merge.commit.TransactionalCommit;
import io.sluice.merge.owners.OwnersGroup;
import io.sluice.merge.read.InputReader;
import io.sluice.merge.run.MergeRunner;
import io.sluice.merge.state.OtherMergesOutput;
import io.sluice.merge.topics.MergeTopics;
import io.sluice.merge.write.MergeCounts;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running merge: inputs read on their own threads ({@link InputReader}), output partitions owned through the
 * target's owners group ({@link OwnersGroup}), merged and committed by {@link MergeRunner}'s workers — exactly once in
 * transactions of the commit point the mirror uses ({@link TargetTransactionCommit}), or at least once by idempotent
 * producers and the owners group's offsets ({@link AcknowledgedCommit}). {@link #start} checks the topics first and
 * refuses, in words, what cannot be merged.
 *
 * <p>Threading: {@link #start}, {@link #awaitEnd} and {@link #close} from one controlling thread; {@link #counts} from
 * any thread.
 */
public final class Merge implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger("io.sluice.merge");

    private final MergeConfig config;
    private final MergeCommit commit;
    private final List<InputReader> readers = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();
    private final MergeRunner runner;
    private final OwnersGroup owners;
    private final CompletableFuture<Void> failure = new CompletableFuture<>();
    /** The partition count the merge started with, every input's and the output's. */
    private final int partitions;
    private final TargetReach targetReach;
    /** Asked only while a target broker owes the producers an answer. */
    private final TargetRoles targetRoles;

    private Merge(MergeConfig config, MergeTopics.Layout layout, Map<String, Object> ownersMember,
            MergeCounts counts) {
        this.config = config;
        this.partitions = layout.partitions();
        Map<String, Object> producer = new java.util.HashMap<>(config.targetProperties());
        // each output partition has its own producer: the budget, not 32 MiB each, bounds what they hold
        producer.putIfAbsent(ProducerConfig.BUFFER_MEMORY_CONFIG,
                Math.max(1L << 20, config.budgetBytes() / layout.partitions()));
        // as the mirror's: with Kafka's 16 KiB and 5 ms the producers' threads cost the merge 1.7x the mirror's CPU per
        // record in bench/run merge; with these, 1.2x
        producer.putIfAbsent(ProducerConfig.LINGER_MS_CONFIG, 10);
        producer.putIfAbsent(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
        producer.putIfAbsent(ProducerConfig.COMPRESSION_TYPE_CONFIG, "none");
        // the target topic decides how large a record may be; the producer's own 1 MB cap would stop the merge at a
        // record an input took
        producer.putIfAbsent(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 16 * 1024 * 1024);
        producer.putIfAbsent(ProducerConfig.CLIENT_ID_CONFIG, config.progressGroup());
        this.owners = new OwnersGroup(config.targetProperties(), ownersMember, config.ownersGroup(),
                config.outputTopic());
        this.commit = config.delivery() == MergeDelivery.EXACTLY_ONCE
                ? new TransactionalCommit(TargetTransactionCommit.builder().producerProperties(producer)
                        .transactionalIdPrefix(config.transactionalIdPrefix()).progressGroup(config.progressGroup())
                        .build(), config, owners)
                : new AcknowledgedCommit(config, producer, owners);
        this.runner = new MergeRunner(config, layout, commit, owners,
                !"none".equals(String.valueOf(producer.get(ProducerConfig.COMPRESSION_TYPE_CONFIG))), counts,
                failure::completeExceptionally);
        this.targetRoles = new TargetRoles(config.targetProperties(), runner::owned,
                config.delivery() == MergeDelivery.EXACTLY_ONCE ? Optional.of(config.progressGroup()) : Optional.empty(),
                commit::transactionalIds).prepare();
        this.targetReach = TargetReach.of(config.targetProperties(), commit::producerMetrics, runner::sending,
                new TargetBrokers(TargetReach.grace(config.targetProperties()), targetRoles, runner::waits));
        runner.unableToFinishWhen(() -> targetReach.silenceInWords(System.nanoTime()));
        for (int i = 0; i < config.inputs().size(); i++) {
            InputReader reader = new InputReader(config.inputs().get(i), config.orderBy(), runner::shareBytes,
                    config.budgetBytes() / ((long) layout.partitions() * config.inputs().size()), i,
                    runner.counts(), config.maxWait(), layout.partitions());
            readers.add(reader);
            reader.failure().whenComplete((v, e) -> failure.completeExceptionally(e));
        }
        runner.readers(readers);
        owners.ownership(runner);
        owners.failure().whenComplete((v, e) -> failure.completeExceptionally(e));
    }

    /** Checks and prepares the topics, then starts reading, merging and taking part in the owners group. */
    public static Merge start(MergeConfig config) throws Exception {
        return start(config, Map.of());
    }

    /** As {@link #start(MergeConfig)}, with settings for this instance's member of the owners group (its timings). */
    public static Merge start(MergeConfig config, Map<String, Object> ownersMember) throws Exception {
        return start(config, ownersMember, new MergeCounts(config.inputs().size()));
    }

    /**
     * As {@link #start(MergeConfig, Map)}, counting into {@code counts}: those of an earlier merge of the same config
     * in this process, so that a merge started again after a failure goes on counting where it stopped (its meters
     * are counters, which never go back).
     */
    public static Merge start(MergeConfig config, Map<String, Object> ownersMember, MergeCounts counts)
            throws Exception {
        if (counts.inputs() != config.inputs().size()) {
            throw new IllegalArgumentException("counts of " + counts.inputs() + " inputs for a merge of "
                    + config.inputs().size());
        }
        MergeTopics.Layout layout = MergeTopics.prepare(config);
        Optional<String> others = OtherMergesOutput.problem(config, Duration.ofSeconds(30));
        if (others.isPresent()) {
            if (OtherMergesOutput.refuses(config)) {
                throw new IllegalArgumentException(others.get());
            }
            LOG.warn("{}; at least once it goes on (records this merge wrote before its first commit are its own, "
                    + "and are written again)", others.get());
        }
        Merge merge = new Merge(config, layout, ownersMember, counts);
        merge.run();
        return merge;
    }

    private void run() {
        for (int i = 0; i < readers.size(); i++) {
            thread("sluice-merge-read-" + config.inputs().get(i).name(), readers.get(i));
        }
        runner.start(this::thread);
        thread("sluice-merge-owners", owners);
    }

    private void thread(String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        threads.add(t);
        t.start();
    }

    public MergeCounts counts() {
        return runner.counts();
    }

    /**
     * How long merged records have waited for the target cluster with no answer, once that is the grace
     * ({@link TargetReach#grace}) or longer (said once in the log, and again when it answers); empty otherwise. Each
     * call is a look: a run's progress line calls it every tick.
     */
    public Optional<Duration> targetUnreachable() {
        return targetReach.unreachableFor(System.nanoTime());
    }

    /**
     * Why the stop ({@link #close}) went without the last commits, in words ("the target cluster (host:9092) has not
     * answered for 40 s"), or empty: what was merged since the last commits is merged again by the next start.
     */
    public Optional<String> stoppedWithoutLastCommits() {
        return runner.leftUncommitted();
    }

    /**
     * The target brokers that have held the merge's writes or commits up for the grace ({@link TargetReach#grace}) or
     * longer without an answer while the target's other brokers answer, with how long (said once in the log with what
     * waits for each, and again when it answers); empty otherwise. As of the last {@link #targetUnreachable()} look.
     */
    public Map<Integer, Duration> targetBrokersUnanswered() {
        return targetReach.brokersUnanswered(System.nanoTime());
    }

    /**
     * The inputs whose cluster has not answered while their reader had partitions to fetch, by name in the
     * configuration's order, with how long; an input appears once its silence is 15 s or the merge's max-wait,
     * whichever is shorter (said once in the log, and again when it answers).
     */
    public Map<String, Duration> inputsUnanswered() {
        Map<String, Duration> silent = new LinkedHashMap<>();
        for (int i = 0; i < readers.size(); i++) {
            String name = config.inputs().get(i).name();
            readers.get(i).unansweredFor().ifPresent(d -> silent.put(name, d));
        }
        return silent;
    }

    /**
     * The input partitions read here that have no leader in their cluster (while the cluster itself answers), by
     * input name in the configuration's order and partition, with how long; a partition appears once that is 15 s or
     * the merge's max-wait, whichever is shorter (said once in the log, and again when it has a leader).
     */
    public Map<String, Map<Integer, Duration>> inputPartitionsWithoutLeader() {
        Map<String, Map<Integer, Duration>> without = new LinkedHashMap<>();
        for (int i = 0; i < readers.size(); i++) {
            Map<Integer, Duration> partitions = readers.get(i).partitionsWithoutLeader();
            if (!partitions.isEmpty()) {
                without.put(config.inputs().get(i).name(), partitions);
            }
        }
        return without;
    }

    /**
     * The input brokers that stopped answering this instance while their cluster's other brokers answer (their
     * partitions keep their leader, so {@link #inputPartitionsWithoutLeader} does not name them), by input name in
     * the configuration's order and broker id, with how long; a broker appears once that is 15 s or the merge's
     * max-wait, whichever is shorter (said once in the log, with the partitions it leads, and again when it answers).
     */
    public Map<String, Map<Integer, Duration>> inputBrokersUnanswered() {
        Map<String, Map<Integer, Duration>> silent = new LinkedHashMap<>();
        for (int i = 0; i < readers.size(); i++) {
            Map<Integer, Duration> brokers = readers.get(i).brokersUnanswered();
            if (!brokers.isEmpty()) {
                silent.put(config.inputs().get(i).name(), brokers);
            }
        }
        return silent;
    }

    /** The output partitions this instance merges now (claimed through the owners group). */
    public int partitions() {
        return runner.ownedPartitions();
    }

    /** Completes exceptionally with the reason the merge cannot go on; never completes normally. */
    public CompletableFuture<Void> failure() {
        return failure;
    }

    /**
     * For a bounded run ({@link MergeConfig#untilEnd}): waits until every partition this instance owns is merged to
     * its inputs' ends and committed, or the merge fails (thrown, in words), or the timeout passes (false).
     */
    public boolean awaitEnd(Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (failure.isCompletedExceptionally()) {
                failure.get();
            }
            if (runner.finished()) {
                if (failure.isCompletedExceptionally()) {
                    failure.get(); // a worker that failed has no partitions left, which reads as finished
                }
                // the readers' metadata may be older than an input's growth: "done" must cover every partition there is
                MergeTopics.checkCountsUnchanged(config, partitions);
                return true;
            }
            Thread.sleep(100);
        }
        return false;
    }

    /** Hands the partitions over (each commits what it merged), then stops every thread. */
    @Override
    public void close() throws Exception {
        try {
            runner.stopping();
            owners.stop();
            joinAll(Duration.ofSeconds(60), threads.subList(threads.size() - 1, threads.size()));
            runner.close();
            readers.forEach(InputReader::stop);
            // after a stop without the last commits, a worker may be inside a commit the target never answers: it
            // ends at the commit's own timeout, and nothing waits for it
            joinAll(runner.leftUncommitted().isPresent() ? Duration.ofSeconds(1) : Duration.ofSeconds(30), threads);
            commit.close();
        } finally {
            targetRoles.close();
        }
    }

    private static void joinAll(Duration timeout, List<Thread> which) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        for (Thread t : List.copyOf(which)) {
            t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
        }
    }
}
