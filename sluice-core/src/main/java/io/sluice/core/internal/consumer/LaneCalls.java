package io.sluice.core.internal.consumer;

import io.sluice.core.ErrorWords;
import io.sluice.core.internal.ledger.CompletionMap;
import io.sluice.core.sink.Sink;
import io.sluice.core.sink.SinkCheckpoint;
import io.sluice.core.wire.CommitMetadata;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;

/**
 * Sink calls made in a partition's lane, in order with its records, and their outcomes waited for or taken on the
 * consumer thread; a sink call that fails or overruns the timeout stops the engine. Shared by the two ways sink
 * output is committed ({@link SinkCommits}, {@link LaneCommits}).
 *
 * <p>Threading: {@link #inLane} and the waits on the consumer thread; the calls themselves run in lanes.
 */
final class LaneCalls {

    /** Kafka's default {@code offset.metadata.max.bytes}. */
    private static final int METADATA_LIMIT = 4096;

    /** How often a wait looks at {@link #whileWaiting}. */
    private static final long LOOK_EVERY_MILLIS = 200;

    private final Duration timeout;
    private final Consumer<Throwable> fail;
    /** Asked during each wait, a few times a second, whether to stop waiting; set by {@link #watchWaits}. */
    private BooleanSupplier stopWaiting = () -> false;

    LaneCalls(Duration timeout, Consumer<Throwable> fail) {
        this.timeout = timeout;
        this.fail = fail;
    }

    interface SinkCall<T> {
        T call() throws Exception;
    }

    /** Runs a sink call in the partition's lane, in order with its records; the future holds the outcome. */
    static <T> CompletableFuture<T> inLane(PartitionState p, String what, SinkCall<T> call) {
        CompletableFuture<T> result = new CompletableFuture<>();
        p.lane(0).addTask(() -> {
            try {
                result.complete(call.call());
            } catch (Throwable t) {
                // the sink's message says what went wrong in its words; a class name only when it has none
                result.completeExceptionally(new IllegalStateException(what + " of " + p.partition + ": "
                        + (t.getMessage() == null ? t.toString() : t.getMessage()), t));
            }
        });
        return result;
    }

    /**
     * Opens the partition in the sink, first in its lane, so that recovery finishes before the partition's first
     * write. The sink resumes where the engine does: the commit, unless a start timestamp skipped past it.
     */
    void open(Sink sink, PartitionState p, OffsetAndMetadata committed) {
        long offset = p.ledger.watermark();
        var data = CommitMetadata.sinkData(committed == null ? null : committed.metadata());
        inLaneOrStop(p, "open", () -> {
            sink.open(p.partition, p.topicId, offset, data);
            return null;
        });
    }

    /**
     * Runs {@code call} in the partition's lane without waiting for it: its failure stops the engine. A sink that could
     * not open a partition (its recovery), publish what a commit named or discard what none will was passed by in
     * silence, and a run whose last commit's files were never published said it stopped cleanly.
     */
    void inLaneOrStop(PartitionState p, String what, SinkCall<?> call) {
        inLane(p, what, call).whenComplete((done, error) -> {
            if (error != null) {
                fail.accept(error);
            }
        });
    }

    /** Closes the partition in the sink, in its lane; the future completes when it is closed. */
    static CompletableFuture<Void> close(Sink sink, PartitionState p, boolean lost) {
        return inLane(p, lost ? "close after loss" : "close", () -> {
            sink.close(p.partition, lost);
            return null;
        });
    }

    /**
     * Asks the sink, in the partition's lane, to free what it holds for it ({@link Sink#relieve}); nobody waits for
     * the answer, so a failure stops the engine from the lane.
     */
    void relieve(Sink sink, PartitionState p) {
        inLane(p, "relieve", () -> {
            sink.relieve(p.partition);
            return null;
        }).whenComplete((done, error) -> {
            if (error != null) {
                fail.accept(new IllegalStateException("the sink failed to free the memory it holds for "
                        + p.partition + ": " + error.getCause(), error.getCause()));
            }
        });
    }

    /** Stops the engine as soon as {@code f} fails, as {@link #await} would when it got to it. */
    void failWhenFailed(PartitionState p, CompletableFuture<?> f) {
        f.whenComplete((done, error) -> {
            if (error != null) {
                fail.accept(failed(p, error));
            }
        });
    }

    private static IllegalStateException failed(PartitionState p, Throwable error) {
        Throwable cause = error instanceof CompletionException && error.getCause() != null
                ? error.getCause() : error;
        return new IllegalStateException("the sink failed" + (p == null ? "" : " on " + p.partition) + ": "
                + ErrorWords.of(cause), cause);
    }

    /** Waits for a lane call; on failure or timeout stops the engine and returns null. */
    <T> T await(PartitionState p, CompletableFuture<T> f) {
        try {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (true) {
                if (!f.isDone() && stopWaiting.getAsBoolean()) {
                    // the engine failed meanwhile: what this call does no longer counts; once given up, each call
                    // still under way returns at once (a slice of waiting each, partition after partition, added up)
                    return null;
                }
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                try {
                    return f.get(Math.max(0, Math.min(left, LOOK_EVERY_MILLIS)), TimeUnit.MILLISECONDS);
                } catch (TimeoutException e) {
                    if (left <= LOOK_EVERY_MILLIS) {
                        throw e;
                    }
                }
            }
        } catch (ExecutionException e) {
            fail.accept(failed(p, e.getCause()));
        } catch (TimeoutException e) {
            fail.accept(new IllegalStateException("the sink did not finish" + (p == null ? "" : " " + p.partition)
                    + " within " + timeout.toSeconds() + " s (the drain timeout); its last commit stands, and what it "
                    + "did after it is done again after a restart"));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return null;
    }

    /** The outcome of a finished lane call; on failure stops the engine and returns null. */
    <T> T resultOf(PartitionState p, CompletableFuture<T> done, String what) {
        try {
            return done.getNow(null);
        } catch (RuntimeException e) {
            fail.accept(new IllegalStateException("the sink failed to " + what + " " + p.partition + ": "
                    + ErrorWords.of(e.getCause()), e.getCause()));
            return null;
        }
    }

    /**
     * From now on each {@link #await} asks {@code stopWaiting} a few times a second while it waits, and returns null
     * (as for a failure, which the engine then has) once it says so.
     */
    void watchWaits(BooleanSupplier stopWaiting) {
        this.stopWaiting = stopWaiting;
    }

    Duration timeout() {
        return timeout;
    }

    /**
     * A sink's checkpoint, with where the partition stood when it was asked for, and how far it reaches with the
     * records given up behind it ({@link PartitionState#sinkReach}). Immutable.
     */
    record Checkpointed(SinkCheckpoint checkpoint, SinkProgress.Reach reach, long covers) {
    }

    /**
     * Asks the sink for a checkpoint in the partition's lane, behind the records handed out so far, and notes where
     * the partition stands now: that is what the checkpoint can cover ({@link SinkProgress}). Consumer thread.
     */
    static CompletableFuture<Checkpointed> checkpoint(Sink sink, PartitionState p, boolean last) {
        SinkProgress.Reach reach = SinkProgress.Reach.of(p.ledger);
        return inLane(p, last ? "last checkpoint" : "checkpoint",
                () -> {
                    SinkCheckpoint c = sink.checkpoint(p.partition, last);
                    return new Checkpointed(c, reach, p.sinkReach(c.offset()));
                });
    }

    /**
     * What a checkpoint commits: the offset {@link SinkProgress} allows it, and the engine's metadata with the sink's
     * data (a sink's checkpoint covers everything below that offset: nothing done beyond it to list).
     */
    static OffsetAndMetadata commitOf(PartitionState p, SinkCheckpoint c, long offset) {
        String metadata = CommitMetadata.encode(p.topicId, CompletionMap.empty(offset).encode(), c.data());
        if (metadata.length() > METADATA_LIMIT) {
            throw new IllegalStateException("the sink's checkpoint data for " + p.partition + " is " + metadata.length()
                    + " characters; the broker's offset.metadata.max.bytes allows " + METADATA_LIMIT);
        }
        return new OffsetAndMetadata(offset, metadata);
    }
}
