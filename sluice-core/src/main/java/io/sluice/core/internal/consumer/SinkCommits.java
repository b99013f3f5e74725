package io.sluice.core.internal.consumer;

import static io.sluice.core.internal.EngineLog.LOG;

import io.micrometer.core.instrument.Timer;
import io.sluice.core.commit.CommitPoint;
import io.sluice.core.crash.CrashPoints;
import io.sluice.core.sink.Sink;
import io.sluice.core.sink.SinkCheckpoint;
import io.sluice.core.wire.CommitMetadata;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
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
 *   <li>When a checkpoint is ready, the consumer thread commits its offset with the sink's data in the metadata.
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

    private static final int METADATA_LIMIT = 4096;

    private final Sink sink;
    private final CommitPoint commitPoint;
    private final long intervalNanos;
    private final java.time.Duration timeout;
    private final Consumer<Throwable> fail;
    private final Function<TopicPartition, PartitionState> current;
    private final Timer latency;
    private long nextCommit;
    private final CommitCounts counts = new CommitCounts();
    /** Partitions being lost, whose commits' failures still reach the sink (see {@link #lost}). */
    private final Set<TopicPartition> losing = new HashSet<>();

    SinkCommits(Sink sink, CommitPoint commitPoint, CommitSettings settings, Consumer<Throwable> fail,
            Function<TopicPartition, PartitionState> current, Timer latency) {
        this.latency = latency;
        this.sink = sink;
        this.commitPoint = commitPoint;
        this.intervalNanos = settings.interval().toNanos();
        this.timeout = settings.timeout();
        this.fail = fail;
        this.current = current;
        this.nextCommit = System.nanoTime() + intervalNanos;
    }

    @Override
    public void assigned(PartitionState p, OffsetAndMetadata committed) {
        p.lastCommitted = committed;
        // where the engine resumes: the commit, unless a start timestamp skipped past it
        long offset = p.ledger.watermark();
        var data = CommitMetadata.sinkData(committed == null ? null : committed.metadata());
        // first in the lane: recovery finishes before the partition's first write
        inLane(p, "open", () -> {
            sink.open(p.partition, p.topicId, offset, data);
            return null;
        });
    }

    @Override
    public void maybeCommit(Collection<PartitionState> partitions) {
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        Map<TopicPartition, SinkCheckpoint> checkpoints = new HashMap<>();
        for (PartitionState p : partitions) {
            CompletableFuture<SinkCheckpoint> pending = p.pendingCheckpoint;
            if (pending == null || !pending.isDone()) {
                continue;
            }
            p.pendingCheckpoint = null;
            SinkCheckpoint c = resultOf(p, pending);
            if (c == null || c.equals(p.lastCheckpoint)) {
                continue;
            }
            offsets.put(p.partition, metadata(p, c));
            checkpoints.put(p.partition, c);
        }
        if (!offsets.isEmpty()) {
            CrashPoints.reach(CrashPoints.BEFORE_COMMIT);
            long sent = System.nanoTime();
            commitPoint.commit(offsets, (committed, error) -> {
                latency.record(System.nanoTime() - sent, TimeUnit.NANOSECONDS);
                if (error == null) {
                    counts.succeeded();
                    CrashPoints.reach(CrashPoints.AFTER_COMMIT_ACK);
                } else {
                    counts.failed();
                    LOG.warn("commit of {} failed: {}", offsets.keySet(), error.toString());
                }
                checkpoints.forEach((tp, c) -> {
                    PartitionState p = current.apply(tp);
                    if (p != null && (p.isOpen() || error != null && losing.contains(tp))) {
                        settled(p, c, offsets.get(tp), error);
                    }
                    // else: revoked meanwhile; its final commit superseded this one, and open() recovers
                });
            });
            CrashPoints.reach(CrashPoints.AFTER_COMMIT_REQUEST);
        }
        long now = System.nanoTime();
        if (now - nextCommit >= 0) {
            nextCommit = now + intervalNanos;
            for (PartitionState p : partitions) {
                if (p.pendingCheckpoint == null && p.isOpen()) {
                    p.pendingCheckpoint = inLane(p, "checkpoint", () -> sink.checkpoint(p.partition, false));
                }
            }
        }
    }

    @Override
    public void commitFinal(Collection<PartitionState> partitions) {
        Map<PartitionState, CompletableFuture<SinkCheckpoint>> last = new HashMap<>();
        for (PartitionState p : partitions) {
            last.put(p, inLane(p, "last checkpoint", () -> sink.checkpoint(p.partition, true)));
        }
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        Map<PartitionState, SinkCheckpoint> checkpoints = new HashMap<>();
        last.forEach((p, f) -> {
            SinkCheckpoint c = await(p, f);
            if (c != null) {
                checkpoints.put(p, c);
                offsets.put(p.partition, metadata(p, c));
            }
        });
        Exception error = null;
        if (!offsets.isEmpty()) {
            try {
                commitPoint.commitNow(offsets, timeout);
                counts.succeeded();
            } catch (RuntimeException e) {
                counts.failed();
                error = e;
                LOG.warn("final commit of {} failed: {}", offsets.keySet(), e.toString());
            }
        }
        List<CompletableFuture<?>> closing = new ArrayList<>();
        for (PartitionState p : partitions) {
            SinkCheckpoint c = checkpoints.get(p);
            if (c != null) {
                settled(p, c, offsets.get(p.partition), error);
            }
            closing.add(inLane(p, "close", () -> {
                sink.close(p.partition, false);
                return null;
            }));
        }
        closing.forEach(f -> await(null, f));
    }

    /**
     * Before the sink lets go of lost partitions, it learns what became of their checkpoints, so that it gives up
     * the output no commit can name instead of leaving it staged: the outcome of commits still in flight (a zombie's
     * commit is refused), and every checkpoint computed but never sent (certainly not committed).
     */
    public void lost(Collection<PartitionState> partitions) {
        partitions.forEach(p -> losing.add(p.partition));
        try {
            commitPoint.settleInFlight(timeout);
        } catch (RuntimeException e) {
            LOG.debug("waiting for the commits in flight of lost partitions: {}", e.toString());
        } finally {
            losing.clear();
        }
        List<CompletableFuture<?>> closing = new ArrayList<>();
        for (PartitionState p : partitions) {
            CompletableFuture<SinkCheckpoint> unsent = p.pendingCheckpoint;
            p.pendingCheckpoint = null;
            closing.add(inLane(p, "close after loss", () -> {
                // the lane ran the checkpoint before this task, so it is done
                if (unsent != null && unsent.isDone() && !unsent.isCompletedExceptionally()
                        && !unsent.join().equals(p.lastCheckpoint)) {
                    sink.notCommitted(p.partition, unsent.join(), true);
                }
                sink.close(p.partition, true);
                return null;
            }));
        }
        closing.forEach(f -> await(null, f));
    }

    @Override
    public long heldBytes(PartitionState p) {
        return sink.bufferedBytes(p.partition);
    }

    @Override
    public CommitCounts counts() {
        return counts;
    }

    /** Tells the sink, in the lane, what became of a checkpoint's commit. */
    private void settled(PartitionState p, SinkCheckpoint c, OffsetAndMetadata oam, Exception error) {
        if (error == null) {
            p.lastCommitted = oam;
            p.lastCheckpoint = c;
            inLane(p, "publish", () -> {
                sink.committed(p.partition, c);
                return null;
            });
        } else {
            boolean certain = commitPoint.refusedForCertain(error);
            inLane(p, "discard", () -> {
                sink.notCommitted(p.partition, c, certain);
                return null;
            });
        }
    }

    private OffsetAndMetadata metadata(PartitionState p, SinkCheckpoint c) {
        long committed = p.lastCommitted == null ? 0 : p.lastCommitted.offset();
        if (c.offset() < committed || c.offset() > p.ledger.end()) {
            throw new IllegalStateException("the sink checkpointed " + p.partition + " at offset " + c.offset()
                    + ", outside [" + committed + ", " + p.ledger.end() + "] (committed, handed out)");
        }
        // a sink's checkpoint covers everything below its offset: nothing done beyond it to list
        String metadata = CommitMetadata.encode(p.topicId, io.sluice.core.internal.ledger.CompletionMap.empty(c.offset())
                .encode(), c.data());
        if (metadata.length() > METADATA_LIMIT) {
            throw new IllegalStateException("the sink's checkpoint data for " + p.partition + " is " + metadata.length()
                    + " characters; the broker's offset.metadata.max.bytes allows " + METADATA_LIMIT);
        }
        return new OffsetAndMetadata(c.offset(), metadata);
    }

    private SinkCheckpoint resultOf(PartitionState p, CompletableFuture<SinkCheckpoint> done) {
        try {
            return done.getNow(null);
        } catch (RuntimeException e) {
            fail.accept(new IllegalStateException("the sink failed to checkpoint " + p.partition + ": " + e.getCause(),
                    e.getCause()));
            return null;
        }
    }

    private <T> T await(PartitionState p, CompletableFuture<T> f) {
        try {
            return f.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            fail.accept(new IllegalStateException("the sink failed" + (p == null ? "" : " on " + p.partition) + ": "
                    + e.getCause(), e.getCause()));
        } catch (TimeoutException e) {
            fail.accept(new IllegalStateException("the sink did not finish" + (p == null ? "" : " " + p.partition)
                    + " within " + timeout + "; its last commit stands"));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return null;
    }

    private interface SinkCall<T> {
        T call() throws Exception;
    }

    /** Runs a sink call in the partition's lane, in order with its records; the future holds the outcome. */
    private static <T> CompletableFuture<T> inLane(PartitionState p, String what, SinkCall<T> call) {
        CompletableFuture<T> result = new CompletableFuture<>();
        p.lane(0).addTask(() -> {
            try {
                result.complete(call.call());
            } catch (Throwable t) {
                result.completeExceptionally(new IllegalStateException(what + " of " + p.partition + ": " + t, t));
            }
        });
        return result;
    }
}
