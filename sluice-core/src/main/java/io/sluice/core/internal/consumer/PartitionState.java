package io.sluice.core.internal.consumer;

import io.sluice.core.internal.budget.QueueDepth;
import io.sluice.core.internal.lane.Invoker;
import io.sluice.core.internal.lane.Lane;
import io.sluice.core.internal.lane.PartitionWork;
import io.sluice.core.internal.lane.WorkerPool;
import io.sluice.core.internal.ledger.CompletionMap;
import io.sluice.core.internal.ledger.PartitionLedger;
import java.util.EnumSet;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * One assigned partition, for as long as it stays assigned: its ledger, its lanes, its bytes and pause reasons. A
 * new assignment of the same partition gets a new object, so completions of an earlier assignment are recognised
 * (they name the old object) and ignored.
 *
 * <p>Threading: the consumer thread owns the ledger, bytes, pauses and commit fields. Workers call the
 * {@link PartitionWork} methods, which touch only the volatile {@code open} flag, the {@code running} counter, the
 * engine's in-flight semaphore and the completion queue.
 */
final class PartitionState implements PartitionWork {

    /**
     * After the last record the lane completed that a sink took, and after the last one given up: written by the
     * partition's lane, whose tasks each happen-before the next; volatile, as handlers' lanes may be several.
     */
    private volatile long afterLastTaken;
    private volatile long afterLastGivenUp;

    final TopicPartition partition;
    /** The topic's ID at assignment; stored with every commit. */
    org.apache.kafka.common.Uuid topicId;
    final PartitionLedger ledger;
    final CompletionMap alreadyComplete;
    final EnumSet<PauseReason> pauses = EnumSet.noneOf(PauseReason.class);
    /**
     * Records whose attempt began and whose outcome is not yet settled ({@link PartitionWork#attemptSettled}): what
     * a revocation's drain waits for. A completion is queued before its record stops counting here.
     */
    final AtomicInteger running = new AtomicInteger();
    long bufferedBytes;
    /** How much of {@link #bufferedBytes} the partition may queue before it pauses. */
    final QueueDepth queueDepth;
    /** The sink was asked to free what it holds since the partition paused for the budget ({@link Completions}). */
    boolean reliefAsked;
    /** Whether the sink was asked to let go of what it holds once the partition was done up to a bounded run's end. */
    boolean relievedAtEnd;
    OffsetAndMetadata lastCommitted;
    /** Sinks only: the checkpoint asked for and not yet committed, and the last one committed. */
    java.util.concurrent.CompletableFuture<LaneCalls.Checkpointed> pendingCheckpoint;
    io.sluice.core.sink.SinkCheckpoint lastCheckpoint;
    /** Sinks committed from the consumer thread ({@link SinkCommits}): how far their checkpoints commit. */
    SinkProgress sinkProgress;
    /**
     * Sinks only: checkpoints sent to be committed whose commit may have landed (in flight, or its outcome unknown),
     * oldest first. On loss, an unsent checkpoint equal to one of them is not certainly uncommitted.
     */
    final java.util.LinkedHashSet<io.sluice.core.sink.SinkCheckpoint> possiblyCommitted = new java.util.LinkedHashSet<>();

    private final Lane[] lanes;
    private final ConcurrentLinkedQueue<ConsumerRecord<byte[], byte[]>> unordered = new ConcurrentLinkedQueue<>();
    private final WorkerPool pool;
    private final Invoker invoker;
    private final Queue<Completion> completions;
    private final Semaphore inFlight;
    private final io.micrometer.core.instrument.Timer processing;
    private volatile boolean open = true;
    /** Consumer thread: the watermark last seen, and since when it has not moved. */
    long watermarkSeen = -1;
    long watermarkSinceNanos;

    /** @param inFlight the engine's limit on records in flight, or null when the worker count is the limit */
    PartitionState(TopicPartition partition, PartitionLedger ledger, CompletionMap alreadyComplete, int lanes,
            WorkerPool pool, Invoker invoker, Queue<Completion> completions, Semaphore inFlight,
            io.micrometer.core.instrument.Timer processing, QueueDepth queueDepth) {
        this.partition = partition;
        this.ledger = ledger;
        this.alreadyComplete = alreadyComplete;
        this.lanes = new Lane[lanes];
        this.pool = pool;
        this.invoker = invoker;
        this.completions = completions;
        this.inFlight = inFlight;
        this.processing = processing;
        this.queueDepth = queueDepth;
    }

    /** The lane for {@code index}, created on first use. Consumer thread only. */
    Lane lane(int index) {
        return laneAt(index);
    }

    /** Queues an unordered record for whichever lane of this partition is free first. Consumer thread only. */
    void addUnordered(ConsumerRecord<byte[], byte[]> record) {
        unordered.offer(record);
    }

    /** Puts up to {@code count} idle lanes to work on the unordered queue. Consumer thread only. */
    void wakeLanes(int count) {
        for (int i = 0; i < lanes.length && count > 0; i++) {
            if (laneAt(i).schedule()) {
                count--;
            }
        }
    }

    private Lane laneAt(int index) {
        Lane lane = lanes[index];
        if (lane == null) {
            lane = new Lane(this, invoker, pool, unordered);
            lanes[index] = lane;
        }
        return lane;
    }

    /** Stops workers from starting this partition's queued records; those already running finish. */
    void close() {
        open = false;
        unordered.clear();
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    @Override
    public boolean attemptStarted() {
        if (inFlight != null) {
            try {
                inFlight.acquire();
            } catch (InterruptedException e) {
                return false;
            }
        }
        running.incrementAndGet();
        if (!open) {
            // counted first, checked second, while close() writes the flag before the drain reads the count: a
            // worker that read "open" and was then delayed (preempted, or waiting for a permit) cannot start a
            // record after the drain found nothing running and committed without it
            running.decrementAndGet();
            attemptEnded();
            return false;
        }
        return true;
    }

    @Override
    public void attemptEnded() {
        if (inFlight != null) {
            inFlight.release();
        }
    }

    @Override
    public void attemptSettled() {
        running.decrementAndGet();
    }

    @Override
    public void givenUp(long offset) {
        afterLastGivenUp = offset + 1;
    }

    /**
     * How far a sink's checkpoint at {@code checkpointed} reaches once the records given up behind it count: when it
     * covers every record the sink took, the records after those were all given up (the lane runs them in order), so
     * it reaches past them. Without that, a partition whose last records the sink rejected would never commit them,
     * and their dead letters would never go out (or go out again after every restart). In the partition's lane.
     */
    long sinkReach(long checkpointed) {
        long givenUp = afterLastGivenUp;
        return checkpointed >= afterLastTaken && givenUp > checkpointed ? givenUp : checkpointed;
    }

    @Override
    public void completed(long offset, long bytes, long startNanos) {
        if (offset >= afterLastGivenUp) {
            afterLastTaken = offset + 1;
        }
        processing.record(System.nanoTime() - startNanos, java.util.concurrent.TimeUnit.NANOSECONDS);
        completions.offer(new Completion(this, offset, bytes));
    }

    /**
     * A fetch of this partition's records landed, before they are handed out: tells the queue depth whether any
     * record was still waiting to start. Consumer thread only.
     */
    void fetchLanded() {
        queueDepth.refilled(ledger.pendingCount() - running.get(), bufferedBytes);
    }

    /** @return whether the partition went from fetching to paused */
    boolean pause(PauseReason reason) {
        boolean wasFetching = pauses.isEmpty();
        pauses.add(reason);
        return wasFetching;
    }

    /** @return whether the partition went from paused to fetching */
    boolean unpause(PauseReason reason) {
        return pauses.remove(reason) && pauses.isEmpty();
    }

    @Override
    public String toString() {
        return partition + "[watermark " + ledger.watermark() + ", pending " + ledger.pendingCount() + ", bytes "
                + bufferedBytes + ", pauses " + pauses + "]";
    }
}
