package io.sluice.core.internal.consumer;

import io.sluice.core.crash.CrashPoints;
import io.sluice.core.internal.budget.MemoryBudget;
import java.util.Collection;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BooleanSupplier;

/**
 * The workers' messages to the consumer thread: "this record of this partition is done". Taking them moves the
 * ledger's watermark and frees budget; then partitions paused for the budget or the window resume once they are
 * down to half of it, and a partition paused for the budget with nothing left queued, which only what its sink
 * holds keeps paused, has the sink asked to free that ({@link CommitPolicy#relieve}). A message from an earlier
 * assignment of a partition names the old state object and is dropped: the partition's new owner does not count it.
 *
 * <p>Threading: workers {@link #queue offer}; the consumer thread takes.
 */
final class Completions {

    private final ConcurrentLinkedQueue<Completion> inbox = new ConcurrentLinkedQueue<>();
    private final AssignedPartitions partitions;
    private final MemoryBudget budget;
    private final CommitPolicy commits;
    private final FetchPauses pauses;
    private final LongAdder completed = new LongAdder();

    Completions(AssignedPartitions partitions, MemoryBudget budget, CommitPolicy commits, FetchPauses pauses) {
        this.partitions = partitions;
        this.budget = budget;
        this.commits = commits;
        this.pauses = pauses;
    }

    /** Where workers put their messages. */
    Queue<Completion> queue() {
        return inbox;
    }

    boolean waiting() {
        return !inbox.isEmpty();
    }

    /** Applies every message so far, then lifts the pauses they ended. */
    void take() {
        Completion c;
        PartitionState current = null; // the last one found assigned: messages come in runs of one partition
        long taken = 0; // counted once per call: an atomic add per completion showed in the mirror's profile
        while ((c = inbox.poll()) != null) {
            PartitionState p = c.partition();
            if (p != current) {
                if (partitions.get(p.partition) != p) {
                    continue; // from an earlier assignment of the partition: fenced
                }
                current = p;
            }
            p.ledger.completed(c.offset());
            p.bufferedBytes -= c.bytes();
            budget.release(c.bytes());
            taken++;
            CrashPoints.reach(CrashPoints.AFTER_COMPLETION);
        }
        completed.add(taken);
        for (PartitionState p : partitions.all()) {
            if (p.pauses.contains(PauseReason.BUDGET)) {
                long held = commits.heldBytes(p);
                if (budget.belowResumeMark(p.bufferedBytes, held, p.queueDepth.cap())) {
                    if (pauses.unpause(p, PauseReason.BUDGET)) {
                        p.queueDepth.resumed(p.bufferedBytes);
                    }
                    p.reliefAsked = false;
                } else if (p.bufferedBytes == 0 && !p.reliefAsked && budget.heldAboveResumeMark(held)) {
                    // Every record handed out is done and what the sink holds alone keeps the partition paused: no
                    // write will come to make the sink let go, and the sink's own limit may not be reached (issue 17:
                    // Parquet files of a wide schema held more than half of each share while the sink stayed under
                    // its limit, so every partition waited for its files to age out). The engine asks, not the sink,
                    // since only the engine knows the share and that nothing more is queued. Once per pause: a sink
                    // that cannot free more is not asked on every loop.
                    p.reliefAsked = true;
                    commits.relieve(p);
                }
            }
            if (p.pauses.contains(PauseReason.WINDOW) && p.ledger.end() - p.ledger.watermark() <= p.ledger.window() / 2) {
                pauses.unpause(p, PauseReason.WINDOW);
            }
        }
    }

    /**
     * Waits, up to {@code timeoutNanos}, until no record of {@code states} is running, taking messages meanwhile.
     *
     * @return the partitions with records still running
     */
    java.util.List<PartitionState> awaitIdle(Collection<PartitionState> states, long timeoutNanos) {
        return awaitIdle(states, timeoutNanos, () -> false);
    }

    /** As {@link #awaitIdle(Collection, long)}, ending the wait early once {@code stopWaiting} says so. */
    java.util.List<PartitionState> awaitIdle(Collection<PartitionState> states, long timeoutNanos,
            BooleanSupplier stopWaiting) {
        long deadline = System.nanoTime() + timeoutNanos;
        while (states.stream().anyMatch(p -> p.running.get() > 0) && System.nanoTime() < deadline
                && !stopWaiting.getAsBoolean()) {
            take();
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        take();
        return states.stream().filter(p -> p.running.get() > 0).collect(java.util.stream.Collectors.toList());
    }

    long completed() {
        return completed.sum();
    }
}
