package io.sluice.core.internal.consumer;

import io.sluice.core.ErrorWords;
import static io.sluice.core.internal.EngineLog.LOG;

import io.micrometer.core.instrument.Timer;
import io.sluice.core.commit.CommitPoint;
import io.sluice.core.crash.CrashPoints;
import io.sluice.core.sink.Sink;
import io.sluice.core.sink.SinkCheckpoint;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * Commits for a {@link Sink}: the sink's output becomes true when the engine's {@link CommitPoint} takes the
 * checkpoint that names it.
 *
 * <ol>
 *   <li>On the interval, a checkpoint task goes into each partition's lane, behind the records handed out so far;
 *       the worker that reaches it asks the sink to make everything before it durable.
 *   <li>When a checkpoint is ready, the consumer thread commits its offset with the sink's data in the metadata; a
 *       checkpoint that covers every record handed out before it commits up to the consumer's position as of then
 *       ({@link SinkProgress}: offsets the consumer stepped over, such as transaction markers, never hold progress).
 *   <li>The commit's outcome goes back into the lane as a task: {@link Sink#committed} (publish) or
 *       {@link Sink#notCommitted} (certainly rejected, or outcome unknown).
 * </ol>
 *
 * Every sink call for a partition thus runs in its lane, in order with the writes, and needs no lock. On revoke and
 * close the same steps run synchronously with a last checkpoint, and the sink is closed.
 *
 * <p>Threading: the consumer thread only (commit outcomes arrive there too); sink calls run in lanes.
 */
final class SinkCommits implements CommitPolicy {


    private final Sink sink;
    private final CommitPoint commitPoint;
    private final long intervalNanos;
    private final LaneCalls calls;
    private final Function<TopicPartition, PartitionState> current;
    private final Timer latency;
    private long nextCommit;
    private final CommitCounts counts = new CommitCounts();
    private final CommitFailures failures = new CommitFailures();
    /** Partitions being lost, whose commits' failures still reach the sink (see {@link #lost}). */
    private final Set<TopicPartition> losing = new HashSet<>();

    SinkCommits(Sink sink, CommitPoint commitPoint, CommitSettings settings, Consumer<Throwable> fail,
            Function<TopicPartition, PartitionState> current, Timer latency) {
        this.latency = latency;
        this.sink = sink;
        this.commitPoint = commitPoint;
        this.intervalNanos = settings.interval().toNanos();
        this.calls = new LaneCalls(settings.timeout(), fail);
        this.current = current;
        this.nextCommit = System.nanoTime() + intervalNanos;
    }

    @Override
    public void watchWaits(BooleanSupplier stopWaiting) {
        calls.watchWaits(stopWaiting);
    }

    @Override
    public void assigned(PartitionState p, OffsetAndMetadata committed) {
        p.lastCommitted = committed;
        p.sinkProgress = new SinkProgress(p.partition, committed == null ? 0 : committed.offset());
        calls.open(sink, p, committed);
    }

    @Override
    public void maybeCommit(Collection<PartitionState> partitions) {
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        Map<PartitionState, SinkCheckpoint> checkpoints = new HashMap<>();
        for (PartitionState p : partitions) {
            CompletableFuture<LaneCalls.Checkpointed> pending = p.pendingCheckpoint;
            if (pending == null || !pending.isDone()) {
                continue;
            }
            p.pendingCheckpoint = null;
            LaneCalls.Checkpointed asked = calls.resultOf(p, pending, "checkpoint");
            if (asked == null) {
                continue;
            }
            SinkCheckpoint c = asked.checkpoint();
            long offset = p.sinkProgress.offsetOf(c, asked.covers(), asked.reach());
            if (c.equals(p.lastCheckpoint) && p.lastCommitted != null && offset == p.lastCommitted.offset()) {
                continue;
            }
            offsets.put(p.partition, sent(p, c, offset));
            checkpoints.put(p, c);
            p.possiblyCommitted.add(c);
        }
        if (!offsets.isEmpty()) {
            CrashPoints.reach(CrashPoints.BEFORE_COMMIT);
            long sent = System.nanoTime();
            commitPoint.commit(offsets, (committed, error) -> {
                latency.record(System.nanoTime() - sent, TimeUnit.NANOSECONDS);
                if (error == null) {
                    counts.succeeded();
                    failures.succeeded(System.nanoTime());
                    CrashPoints.reach(CrashPoints.AFTER_COMMIT_ACK);
                } else {
                    counts.failed();
                    failures.failed(offsets.keySet(), error, System.nanoTime());
                }
                checkpoints.forEach((p, c) -> {
                    TopicPartition tp = p.partition;
                    if (current.apply(tp) != p) {
                        // an earlier assignment's commit, answered after the partition was let go (a loss whose wait
                        // for commits in flight timed out) and perhaps assigned again: the new assignment recovered
                        // from the commit point and made its own checkpoints, which this answer says nothing about
                        return;
                    }
                    answered(p, c, error);
                    if (p.isOpen() || error != null && losing.contains(tp)) {
                        settled(p, c, offsets.get(tp), error);
                    } else if (error == null && losing.contains(tp)) {
                        // taken just before the loss: it is the truth now, though a lost partition publishes nothing
                        p.lastCommitted = offsets.get(tp);
                        p.lastCheckpoint = c;
                    }
                    // else: being revoked; its final commit supersedes this one, and the next open() recovers
                });
            });
            CrashPoints.reach(CrashPoints.AFTER_COMMIT_REQUEST);
        }
        long now = System.nanoTime();
        if (now - nextCommit >= 0) {
            nextCommit = now + intervalNanos;
            for (PartitionState p : partitions) {
                if (p.pendingCheckpoint == null && p.isOpen()) {
                    p.pendingCheckpoint = LaneCalls.checkpoint(sink, p, false);
                }
            }
        }
    }

    @Override
    public void commitFinal(Collection<PartitionState> partitions) {
        Map<PartitionState, CompletableFuture<LaneCalls.Checkpointed>> last = new HashMap<>();
        for (PartitionState p : partitions) {
            last.put(p, LaneCalls.checkpoint(sink, p, true));
        }
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        Map<PartitionState, SinkCheckpoint> checkpoints = new HashMap<>();
        last.forEach((p, f) -> {
            LaneCalls.Checkpointed asked = calls.await(p, f);
            if (asked != null) {
                SinkCheckpoint c = asked.checkpoint();
                checkpoints.put(p, c);
                offsets.put(p.partition, sent(p, c, p.sinkProgress.offsetOf(c, asked.covers(), asked.reach())));
            }
        });
        Exception error = null;
        if (!offsets.isEmpty()) {
            try {
                commitPoint.commitNow(offsets, calls.timeout());
                counts.succeeded();
            } catch (RuntimeException e) {
                counts.failed();
                error = e;
                LOG.warn("final commit of {} failed: {}", offsets.keySet(), ErrorWords.of(e));
            }
        }
        List<CompletableFuture<?>> closing = new ArrayList<>();
        for (PartitionState p : partitions) {
            SinkCheckpoint c = checkpoints.get(p);
            if (c != null) {
                settled(p, c, offsets.get(p.partition), error);
            }
            closing.add(LaneCalls.close(sink, p, false));
        }
        closing.forEach(f -> calls.await(null, f));
    }

    /**
     * Before the sink lets go of lost partitions, it learns what became of their checkpoints, so that it gives up
     * the output no commit can name instead of leaving it staged: the outcome of commits still in flight (a zombie's
     * commit is refused), and every checkpoint computed but never sent (certainly not committed).
     */
    public void lost(Collection<PartitionState> partitions) {
        partitions.forEach(p -> losing.add(p.partition));
        try {
            commitPoint.settleInFlight(calls.timeout());
        } catch (RuntimeException e) {
            // their checkpoints stay possibly committed, so the sink gives up none of what they name, and the next
            // owner's recovery settles it from what the commit point holds. Not always a wait that ran out: a stop
            // requested meanwhile (the consumer's wakeup) ends it at once
            LOG.warn("the outcome of the commits in flight of lost partitions {} is unknown ({}); what they name is "
                    + "left to the next owner", partitions.stream().map(p -> p.partition).toList(), ErrorWords.of(e));
        } finally {
            losing.clear();
        }
        List<CompletableFuture<?>> closing = new ArrayList<>();
        for (PartitionState p : partitions) {
            CompletableFuture<LaneCalls.Checkpointed> unsent = p.pendingCheckpoint;
            p.pendingCheckpoint = null;
            // an unsent checkpoint equal to one that was committed, or whose commit's outcome is still unknown, is not
            // certainly uncommitted: the sink must not give up what it names
            Set<SinkCheckpoint> maybeCommitted = new HashSet<>(p.possiblyCommitted);
            if (p.lastCheckpoint != null) {
                maybeCommitted.add(p.lastCheckpoint);
            }
            closing.add(LaneCalls.inLane(p, "close after loss", () -> {
                // the lane ran the checkpoint before this task, so it is done
                if (unsent != null && unsent.isDone() && !unsent.isCompletedExceptionally()
                        && !maybeCommitted.contains(unsent.join().checkpoint())) {
                    sink.notCommitted(p.partition, unsent.join().checkpoint(), true);
                }
                sink.close(p.partition, true);
                return null;
            }));
        }
        closing.forEach(f -> calls.await(null, f));
    }

    @Override
    public long heldBytes(PartitionState p) {
        return sink.bufferedBytes(p.partition);
    }

    @Override
    public void relieve(PartitionState p) {
        calls.relieve(sink, p);
    }

    @Override
    public CommitCounts counts() {
        return counts;
    }

    /**
     * Keeps {@link PartitionState#possiblyCommitted} to the checkpoints that may be the partition's committed one:
     * those in flight and those whose outcome is unknown. A commit taken supersedes every one sent before it (commits
     * land in order); a refused one never lands.
     */
    private void answered(PartitionState p, SinkCheckpoint c, Exception error) {
        if (error == null) {
            for (var it = p.possiblyCommitted.iterator(); it.hasNext(); ) {
                if (it.next().equals(c)) {
                    it.remove();
                    break;
                }
                it.remove();
            }
        } else if (commitPoint.refusedForCertain(error)) {
            p.possiblyCommitted.remove(c);
        }
    }

    /** Tells the sink, in the lane, what became of a checkpoint's commit. */
    private void settled(PartitionState p, SinkCheckpoint c, OffsetAndMetadata oam, Exception error) {
        if (error == null) {
            p.lastCommitted = oam;
            p.lastCheckpoint = c;
            calls.inLaneOrStop(p, "publish", () -> {
                sink.committed(p.partition, c);
                return null;
            });
        } else {
            boolean certain = commitPoint.refusedForCertain(error);
            calls.inLaneOrStop(p, "discard", () -> {
                sink.notCommitted(p.partition, c, certain);
                return null;
            });
        }
    }

    /**
     * The commit of {@code c} at {@code offset}, counted as sent: a later checkpoint commits no less, even while this
     * one is in flight (commits land in order, and the offsets it stepped over stay empty).
     */
    private static OffsetAndMetadata sent(PartitionState p, SinkCheckpoint c, long offset) {
        OffsetAndMetadata commit = LaneCalls.commitOf(p, c, offset);
        p.sinkProgress.sent(c, offset);
        return commit;
    }
}
