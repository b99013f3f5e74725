package io.sluice.merge.run;

import io.sluice.core.commit.TargetWait;
import io.sluice.merge.merging.MergeClock;
import io.sluice.core.ClusterConnection;
import io.sluice.merge.MergeConfig;
import io.sluice.merge.MergeDelivery;
import io.sluice.merge.MergeInput;
import io.sluice.merge.commit.MergeCommit;
import io.sluice.merge.merging.InputBuffer;
import io.sluice.merge.merging.PartitionMerge;
import io.sluice.merge.owners.OwnersGroup;
import io.sluice.merge.read.InputReader;
import io.sluice.merge.state.MergeState;
import io.sluice.merge.state.OtherMergesOutput;
import io.sluice.merge.state.StateCodec;
import io.sluice.merge.topics.MergeTopics;
import io.sluice.merge.write.MergeCounts;
import io.sluice.merge.write.OutputLimits;
import io.sluice.merge.write.OutputPartition;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What an instance does with the output partitions the owners group gives it. On assignment: claim them in the
 * target ({@link MergeCommit}: fencing earlier owners as far as the delivery can, reading the committed state), start
 * reading each input's partition p at the state's positions, and give the partition to a worker. On revoke: the worker commits what it merged and lets go, then the
 * claim is released. On loss: let go without a commit, since the next owner's claim has fenced this one anyway.
 *
 * <p>Threading: the ownership callbacks on the owners group's thread (the commit point's claim and release run
 * there); {@link #shareBytes}, {@link #finished} and {@link #counts} from any thread.
 */
public final class MergeRunner implements OwnersGroup.Ownership {

    private static final Logger LOG = LoggerFactory.getLogger("io.sluice.merge");
    private static final Duration CLAIM_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration HAND_OVER = Duration.ofSeconds(60);
    /** How often a stop's wait for a partition's last commit asks whether the target answers. */
    private static final Duration LOOK_EVERY = Duration.ofMillis(200);
    /** How often an idle partition's state is committed again: the progress group's offsets expire unrefreshed. */
    private static final Duration RECOMMIT = Duration.ofHours(1);

    private final MergeConfig config;
    private final MergeTopics.Layout layout;
    private final MergeCommit commit;
    private final OwnersGroup owners;
    private final StateCodec codec;
    private final MergeCounts counts;
    private final OutputLimits limits;
    /** What the late and the dead-letter topics take; null when not configured. */
    private final OutputLimits lateLimits;
    private final OutputLimits deadLimits;
    private final List<MergeWorker> workers = new ArrayList<>();
    private final List<Admin> inputAdmins = new ArrayList<>();
    /** The output partitions this instance merges now, each with its output. */
    private final Map<TopicPartition, OutputPartition> owned = new ConcurrentHashMap<>();
    private List<InputReader> readers = List.of();
    private volatile boolean claimedOnce;
    /** Why the output cannot be written now (the target's silence), once the merge watches it. */
    private volatile Supplier<Optional<String>> unableToFinish = Optional::empty;
    /** Set when the merge stops: a partition's last commit is then not waited for while the target is silent. */
    private volatile boolean stopping;
    /** Why the stop went without the last commits; null while it did not. */
    private volatile String leftUncommitted;

    /**
     * @param compressed whether the output producers compress (then only the broker knows a batch's size)
     * @param counts     where the merge counts what it does (one per input of the config)
     */
    public MergeRunner(MergeConfig config, MergeTopics.Layout layout, MergeCommit commit, OwnersGroup owners,
            boolean compressed, MergeCounts counts, Consumer<Exception> onFailure) {
        this.config = config;
        this.layout = layout;
        this.commit = commit;
        this.owners = owners;
        this.codec = (layout.outputTopicId() == null ? config.stateCodec()
                : config.stateCodec().forOutput(layout.outputTopicId())).forInputs(layout.inputTopicIds());
        this.counts = counts;
        this.limits = new OutputLimits(layout.maxMessageBytes(), layout.maxFutureMillis(), layout.maxPastMillis(),
                layout.compacted(), compressed);
        this.lateLimits = side(limits, "late", layout.late());
        this.deadLimits = side(limits, "dead-letter", layout.dead());
        for (int w = 0; w < Math.min(config.workers(), layout.partitions()); w++) {
            workers.add(new MergeWorker(onFailure));
        }
        for (MergeInput input : config.inputs()) {
            inputAdmins.add(Admin.create(ClusterConnection.of(input.clientProperties())));
        }
    }

    /** The readers, in the inputs' order; set once before the owners group starts. */
    public void readers(List<InputReader> readers) {
        this.readers = List.copyOf(readers);
    }

    /** Starts the workers' threads through {@code threads} (name, body). */
    public void start(BiConsumer<String, Runnable> threads) {
        for (int w = 0; w < workers.size(); w++) {
            threads.accept("sluice-merge-" + w, workers.get(w));
        }
    }

    public MergeCounts counts() {
        return counts;
    }

    /** The output partitions this instance merges now. */
    public int ownedPartitions() {
        return owned.size();
    }

    /** What each output partition's merge thread waits for in the target now, and since when; from any thread. */
    public Map<TopicPartition, TargetWait> waits() {
        Map<TopicPartition, TargetWait> waits = new HashMap<>();
        owned.forEach((output, out) -> out.waiting().ifPresent(w -> waits.put(output, w)));
        return waits;
    }

    /** Which output partitions this instance merges now; from any thread. */
    public Set<TopicPartition> owned() {
        return Set.copyOf(owned.keySet());
    }

    /** Whether a merge thread waits on the target now: a send, flush or commit ({@link OutputPartition#sending}). */
    public boolean sending() {
        for (OutputPartition out : owned.values()) {
            if (out.sending()) {
                return true;
            }
        }
        return false;
    }

    /** One input partition's share of the budget: the budget over every input partition this instance reads. */
    public long shareBytes() {
        return config.budgetBytes() / Math.max(1, owned.size() * config.inputs().size());
    }

    /** For a bounded run: partitions were claimed, and every one is merged to its inputs' ends and committed. */
    public boolean finished() throws Exception {
        if (!claimedOnce) {
            return false;
        }
        for (MergeWorker worker : workers) {
            if (!worker.finished().get(30, TimeUnit.SECONDS)) {
                return false;
            }
        }
        return true;
    }

    @Override
    public void assigned(Collection<TopicPartition> partitions) {
        Map<TopicPartition, OffsetAndMetadata> committed = commit.claim(new HashSet<>(partitions), CLAIM_TIMEOUT);
        checkStatelessPartitionsAreEmpty(partitions.stream().filter(p -> !committed.containsKey(p)).toList());
        for (TopicPartition output : partitions) {
            MergeState state = committed.containsKey(output)
                    ? codec.decode(committed.get(output).metadata(), committed.get(output).offset(),
                            "the committed state of " + output)
                    : MergeState.initial(earliest(output.partition()));
            MergeWorker worker = workers.get(output.partition() % workers.size());
            InputBuffer[] buffers = new InputBuffer[config.inputs().size()];
            long now = MergeClock.now();
            for (int i = 0; i < buffers.length; i++) {
                buffers[i] = new InputBuffer(worker::wake, now);
            }
            PartitionMerge merge = new PartitionMerge(buffers, state, config.maxWait().toMillis(),
                    config.holdBack().toMillis(), System::currentTimeMillis);
            OutputPartition out = new OutputPartition(output, config, commit.sender(output), layout.latePartitions(),
                    layout.deadPartitions(), limits, lateLimits, deadLimits, counts);
            if (config.delivery() == MergeDelivery.AT_LEAST_ONCE) {
                out.markResumed(state.last()); // verify's sign that a repeated window may begin here
            }
            worker.start(new PartitionTask(output, merge, out, commit, codec, config.commitInterval(), RECOMMIT, now,
                    committed.containsKey(output)));
            owned.put(output, out);
            for (int i = 0; i < buffers.length; i++) {
                readers.get(i).add(output.partition(), state.position(i), buffers[i]);
            }
            LOG.info("{} claimed, from {}", output, state.describe(config.inputs().stream().map(MergeInput::name)
                    .toList()));
        }
        claimedOnce = true;
    }

    /**
     * An output partition without a committed state whose output holds committed records: its state expired
     * ({@code offsets.retention.minutes} after its last commit) while other partitions' did not (the start's check,
     * {@link OtherMergesOutput}, sees only an output none of whose states is left), and a start from the inputs'
     * beginning would merge them into it again. Exactly once that is refused; at least once it is said.
     */
    private void checkStatelessPartitionsAreEmpty(List<TopicPartition> stateless) {
        if (stateless.isEmpty()) {
            return;
        }
        List<TopicPartition> written = OtherMergesOutput.holdingRecords(config, stateless, CLAIM_TIMEOUT);
        if (written.isEmpty()) {
            return;
        }
        String words = "output partitions " + written + " hold records, yet merge '" + config.name() + "' has no "
                + "committed state for them (expired, offsets.retention.minutes after its last commit there, or "
                + "deleted): a start from the inputs' beginning would merge every record of theirs again";
        if (OtherMergesOutput.refuses(config)) {
            throw new IllegalStateException(words + ". Merge into a new output topic under a new merge name, and "
                    + "raise offsets.retention.minutes on the output's cluster above the longest time between runs");
        }
        LOG.warn("{}; at least once, they are merged again from there (a merge killed before its first commit "
                + "leaves its own records so)", words);
    }

    private static OutputLimits side(OutputLimits output, String role, MergeTopics.SideTopic topic) {
        return topic == null ? null : output.forSideTopic(role, topic.name(), topic.maxMessageBytes(),
                topic.maxFutureMillis(), topic.maxPastMillis(), topic.compacted());
    }

    @Override
    public void revoked(Collection<TopicPartition> partitions) {
        letGo(partitions, true);
    }

    @Override
    public void lost(Collection<TopicPartition> partitions) {
        letGo(partitions, false);
    }

    private void letGo(Collection<TopicPartition> partitions, boolean commitFirst) {
        for (TopicPartition output : partitions) {
            readers.forEach(r -> r.remove(output.partition()));
            try {
                handOver(workers.get(output.partition() % workers.size()).stop(output, commitFirst));
                if (!stopping) {
                    // the taker said "claimed"; the giver said nothing, and a hand-over read as half of one
                    LOG.info(commitFirst ? "{} handed over to another instance of the merge, after its last commit"
                            : "{} lost to another instance of the merge (this one went unheard past its session): it "
                            + "goes on from the last commit", output);
                }
            } catch (Exception e) {
                // a handed-over partition whose last commit failed (fenced: the next owner claimed it already) is
                // only that partition's loss; the next owner's claim reads what is committed
                if (leftUncommitted == null) {
                    LOG.warn("{} handed over without its last commit: {}", output, e.getMessage());
                }
            }
            owned.remove(output);
        }
        commit.release(partitions, !commitFirst);
    }

    /**
     * Waits up to {@link #HAND_OVER} for a worker to let a partition go, serving the owners group meanwhile (the
     * worker's last commit may need this thread: at least once, the group commits it); during a stop, while the target
     * does not answer, lets go of the last commits instead of waiting on them (a stop during an output outage waited
     * 46 s, and said it stopped cleanly).
     */
    private void handOver(CompletableFuture<Void> done) throws Exception {
        long deadline = System.nanoTime() + HAND_OVER.toNanos();
        while (true) {
            if (!done.isDone()) {
                giveUpIfUnableToFinish();
                if (leftUncommitted != null) {
                    // not waited for: a commit already under way on the target is not cut short by the abandon, and
                    // holds its worker until its own timeout (max.block.ms); its transaction is aborted by the next
                    // claim, or lands whole
                    return;
                }
            }
            try {
                owners.await(done, LOOK_EVERY);
                return;
            } catch (TimeoutException e) {
                if (System.nanoTime() - deadline > 0) {
                    throw new TimeoutException("no answer within " + HAND_OVER.toSeconds() + " s");
                }
            }
        }
    }

    private void giveUpIfUnableToFinish() {
        if (!stopping || leftUncommitted != null) {
            return;
        }
        unableToFinish.get().ifPresent(why -> {
            leftUncommitted = why;
            LOG.warn("stopping without the last commits: {}; what was not committed is let go of now", why);
            commit.abandon();
        });
    }

    /** Where a stop learns why the output cannot be written now: the merge's watch on the target. */
    public void unableToFinishWhen(Supplier<Optional<String>> why) {
        this.unableToFinish = why;
    }

    /** The merge stops: from now on a partition's last commit is let go of while the target does not answer. */
    public void stopping() {
        stopping = true;
    }

    /** Why the stop went without the last commits, or empty: what was not committed is merged again next time. */
    public Optional<String> leftUncommitted() {
        return Optional.ofNullable(leftUncommitted);
    }

    /** Stops the workers (after the owners group has let every partition go) and the admin clients. */
    public void close() {
        workers.forEach(MergeWorker::close);
        inputAdmins.forEach(a -> a.close(Duration.ofSeconds(5)));
    }

    /** Where each input's partition begins today: a partition merged for the first time starts there. */
    private long[] earliest(int partition) {
        long[] start = new long[config.inputs().size()];
        for (int i = 0; i < start.length; i++) {
            TopicPartition tp = new TopicPartition(config.inputs().get(i).topic(), partition);
            try {
                start[i] = inputAdmins.get(i).listOffsets(Map.of(tp, OffsetSpec.earliest())).partitionResult(tp)
                        .get(30, TimeUnit.SECONDS).offset();
            } catch (Exception e) {
                throw new IllegalStateException("cannot read where input '" + config.inputs().get(i).name()
                        + "' partition " + partition + " begins: " + e.getMessage(), e);
            }
        }
        return start;
    }

}
