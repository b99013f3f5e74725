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
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;

/**
 * Commits for a {@link Sink} whose commit point commits in the partition's lane ({@link CommitPoint#commitsInLane}: a
 * transaction in a target cluster, which cannot commit while the lane sends into it). On the interval a task goes
 * into each partition's lane behind the records handed out so far; the worker that reaches it asks the sink for a
 * checkpoint, has the commit point commit it, and tells the sink it was committed: one step, in order with the
 * writes, so no write of the next checkpoint can slip into this one. The consumer thread only learns the outcome. A
 * checkpoint that covers every record handed out before its task commits up to the consumer's position as of then
 * ({@link SinkProgress}), so transaction markers and aborted records at the end of the source never hold progress.
 *
 * <p>A commit that did not certainly succeed stops the engine (after the sink heard {@link Sink#notCommitted}): what
 * the sink handed to it is gone (aborted) or in doubt, and the engine cannot take back records already done. A
 * restart resumes from what the commit point's claim says is committed.
 *
 * <p>Threading: the consumer thread, except what runs in lanes: {@link #checkpointAndCommit} and the
 * {@link LaneSide} it touches, owned by the partition's lane (its tasks run one after another, each happening-before
 * the next).
 */
final class LaneCommits implements CommitPolicy {

    private final Sink sink;
    private final CommitPoint commitPoint;
    private final long intervalNanos;
    private final LaneCalls calls;
    private final Timer latency;
    private final CommitCounts counts = new CommitCounts();
    /** Consumer thread: each assigned partition's lane side and its commit in progress. */
    private final Map<PartitionState, Tracked> tracked = new HashMap<>();
    private long nextCommit;

    /** What the partition's lane knows of its commits; touched only in the lane, but for {@code lost}. */
    private static final class LaneSide {
        SinkProgress progress;
        SinkCheckpoint lastCheckpoint;
        /** {@link System#nanoTime()} of the last commit taken. */
        long lastCommitAt;
        /** Set by the consumer thread when the partition is lost: a commit task queued before must not commit. */
        volatile boolean lost;
    }

    private static final class Tracked {
        final LaneSide lane = new LaneSide();
        CompletableFuture<Committed> pending;
        /** Until the assignment's first commit with records is queued ({@link #commitAfter}). */
        boolean firstPending = true;
    }

    /** A checkpoint the commit point took, and what it committed. */
    private record Committed(SinkCheckpoint checkpoint, OffsetAndMetadata commit) {
    }

    LaneCommits(Sink sink, CommitPoint commitPoint, CommitSettings settings, Consumer<Throwable> fail, Timer latency) {
        this.sink = sink;
        this.commitPoint = commitPoint;
        this.intervalNanos = settings.interval().toNanos();
        this.calls = new LaneCalls(settings.timeout(), fail);
        this.latency = latency;
        this.nextCommit = System.nanoTime() + intervalNanos;
    }

    @Override
    public void watchWaits(BooleanSupplier stopWaiting) {
        calls.watchWaits(stopWaiting);
    }

    @Override
    public void assigned(PartitionState p, OffsetAndMetadata committed) {
        p.lastCommitted = committed;
        Tracked t = new Tracked();
        // set before the first lane task is queued: the queue hands it to the lane
        t.lane.progress = new SinkProgress(p.partition, committed == null ? 0 : committed.offset());
        tracked.put(p, t);
        calls.open(sink, p, committed);
    }

    @Override
    public void maybeCommit(Collection<PartitionState> partitions) {
        for (PartitionState p : partitions) {
            Tracked t = tracked.get(p);
            if (t != null && t.pending != null && t.pending.isDone()) {
                taken(p, calls.resultOf(p, t.pending, "commit"));
                t.pending = null;
            }
        }
        long now = System.nanoTime();
        boolean due = now - nextCommit >= 0;
        if (due) {
            nextCommit = now + intervalNanos;
        }
        for (PartitionState p : partitions) {
            Tracked t = tracked.get(p);
            if (t == null || t.pending != null || !p.isOpen()) {
                continue;
            }
            if (due) {
                queue(p, t);
            }
        }
    }

    /**
     * An assignment's first commit follows its first record, not the interval nor a whole fetch: until a transaction
     * commits, a read_committed reader of the target sees nothing (a mirror's first copies waited a whole interval
     * after the claim; later, behind the first fetch, 500 records that a lane still cold from the start took about
     * 200 ms to send on the mirror benchmark). The rest of that fetch commits on the interval.
     */
    @Override
    public int commitAfter(PartitionState p) {
        Tracked t = tracked.get(p);
        return t != null && t.firstPending ? 1 : Integer.MAX_VALUE;
    }

    @Override
    public void queueCommit(PartitionState p) {
        Tracked t = tracked.get(p);
        if (t != null && t.pending == null) { // else the next fetch's first record tries again
            t.firstPending = false;
            queue(p, t);
        }
    }

    private void queue(PartitionState p, Tracked t) {
        SinkProgress.Reach reach = SinkProgress.Reach.of(p.ledger);
        t.pending = LaneCalls.inLane(p, "checkpoint and commit", () -> checkpointAndCommit(p, t.lane, reach, false));
    }

    @Override
    public void commitFinal(Collection<PartitionState> partitions) {
        // every partition's last calls queued before any is waited for, each reported when it fails rather than when
        // its turn to be waited for comes: the engine then lets go of what the other lanes wait on (abandon), instead of
        // each wait running out the drain timeout behind a partition whose broker does not answer
        Map<PartitionState, CompletableFuture<Committed>> pending = new HashMap<>();
        Map<PartitionState, CompletableFuture<Committed>> last = new HashMap<>();
        for (PartitionState p : partitions) {
            Tracked t = tracked.get(p);
            if (t == null) {
                continue;
            }
            if (t.pending != null) {
                pending.put(p, t.pending);
                t.pending = null;
            }
            SinkProgress.Reach reach = SinkProgress.Reach.of(p.ledger);
            // behind the pending commit in the lane
            last.put(p, LaneCalls.inLane(p, "last checkpoint and commit",
                    () -> checkpointAndCommit(p, t.lane, reach, true)));
        }
        pending.forEach(calls::failWhenFailed);
        last.forEach(calls::failWhenFailed);
        for (PartitionState p : partitions) {
            // a commit the loop did not collect yet: the final one finds nothing new after it and commits nothing,
            // so this is what the partition's last commit is (a clean stop said "not yet durable")
            if (pending.containsKey(p)) {
                taken(p, calls.await(p, pending.get(p)));
            }
            if (last.containsKey(p)) {
                taken(p, calls.await(p, last.get(p)));
            }
        }
        List<CompletableFuture<?>> closing = new ArrayList<>();
        for (PartitionState p : partitions) {
            CompletableFuture<?> close = LaneCalls.close(sink, p, false);
            calls.failWhenFailed(p, close);
            closing.add(close);
            tracked.remove(p);
        }
        closing.forEach(f -> calls.await(null, f));
    }

    @Override
    public void lost(Collection<PartitionState> partitions) {
        // nothing is in flight outside the lanes; a commit task queued before the close sees the mark and skips its
        // commit (one already committing may land: the next owner's claim fences it or reads it, both exact)
        List<CompletableFuture<?>> closing = new ArrayList<>();
        for (PartitionState p : partitions) {
            Tracked t = tracked.remove(p);
            if (t != null) {
                t.lane.lost = true;
            }
            closing.add(LaneCalls.close(sink, p, true));
        }
        closing.forEach(f -> calls.await(null, f));
    }

    @Override
    public long heldBytes(PartitionState partition) {
        return sink.bufferedBytes(partition.partition);
    }

    @Override
    public void relieve(PartitionState partition) {
        calls.relieve(sink, partition);
    }

    @Override
    public CommitCounts counts() {
        return counts;
    }

    private void taken(PartitionState p, Committed committed) {
        if (committed != null) {
            p.lastCommitted = committed.commit();
            p.lastCheckpoint = committed.checkpoint();
            counts.succeeded();
        }
    }

    /** Whether an idle partition's unchanged progress is due to be committed again, lest it expire. */
    private boolean recommitDue(LaneSide lane) {
        return commitPoint.recommitInterval()
                .map(every -> System.nanoTime() - lane.lastCommitAt >= every.toNanos()).orElse(false);
    }

    /**
     * In the partition's lane: null when nothing changed since the last commit (and no recommit is due).
     *
     * @param reach where the partition stood when this task was queued ({@link SinkProgress})
     */
    private Committed checkpointAndCommit(PartitionState p, LaneSide lane, SinkProgress.Reach reach, boolean last)
            throws Exception {
        if (lane.lost) {
            return null; // another member may own the partition now: never commit for it
        }
        SinkCheckpoint c;
        try {
            c = sink.checkpoint(p.partition, last);
        } catch (Exception e) {
            counts.failed(); // no commit without its checkpoint (a mirror's copies the target did not take): counted
            throw e;
        }
        // past the records given up after the last the sink took, as the consumer thread's commits reach
        long offset = lane.progress.offsetOf(c, p.sinkReach(c.offset()), reach);
        if (c.equals(lane.lastCheckpoint) && offset == lane.progress.committed() && !recommitDue(lane)) {
            return null;
        }
        OffsetAndMetadata commit = LaneCalls.commitOf(p, c, offset);
        CrashPoints.reach(CrashPoints.BEFORE_COMMIT);
        long sent = System.nanoTime();
        try {
            commitPoint.commitNow(Map.of(p.partition, commit), calls.timeout());
        } catch (Exception e) {
            counts.failed();
            boolean certain = commitPoint.refusedForCertain(e);
            LOG.warn("commit of {} at offset {} {}: {}", p.partition, offset,
                    certain ? "refused" : "did not certainly succeed", ErrorWords.of(e));
            sink.notCommitted(p.partition, c, certain);
            throw e;
        }
        latency.record(System.nanoTime() - sent, TimeUnit.NANOSECONDS);
        CrashPoints.reach(CrashPoints.AFTER_COMMIT_ACK);
        lane.progress.sent(c, offset);
        lane.lastCheckpoint = c;
        lane.lastCommitAt = System.nanoTime();
        sink.committed(p.partition, c);
        return new Committed(c, commit);
    }
}
