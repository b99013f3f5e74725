package io.sluice.core.internal.lane;

import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * A queue of records processed strictly one after another, in the order they were added. A lane is never pinned
 * to a thread: whenever it has records and no owner it is handed to the {@link WorkerPool}, and any idle worker
 * takes it, so one busy lane never leaves others waiting behind it.
 *
 * <p>Ownership is the threading rule. {@link #add} is called by the consumer thread only. Everything else belongs to
 * the lane's current <em>owner</em>: the worker running {@link #run}, or, while an asynchronous attempt is pending,
 * that attempt. Ownership passes only through the pool's queue (a happens-before edge) and through the attempt
 * {@code stamp}: it is odd while an attempt runs, and whoever moves it on from that odd value (the worker when the
 * attempt returns, the completing thread of an asynchronous attempt, or the watchdog when the attempt overran its
 * timeout) owns the lane next. A worker that loses that race to the watchdog is stuck in user code; it must leave
 * the lane untouched and retire. One lock, the lane's own monitor, is held only for a moment, in two places: a worker
 * turning its attempt asynchronous (its look at the stamp, the flag and the pool's suspended set) and the watchdog's
 * take-over (its look at the flag and its move of the stamp), so that neither comes between the other's look and act
 * (a worker taken over after its look still marked the lane suspended: a review).
 */
public final class Lane {

    /** Records a worker takes in one turn before it lets other lanes have the thread. */
    static final int TURN = 64;

    private final PartitionWork partition;
    private final Invoker invoker;
    private final WorkerPool pool;
    /** Runs of records and {@link LaneTask}s, in order. */
    private final ConcurrentLinkedQueue<Queued> queue = new ConcurrentLinkedQueue<>();
    /** The partition's queue of unordered records, which every lane of the partition drains; null when ordered. */
    private final Queue<ConsumerRecord<byte[], byte[]>> shared;
    private final AtomicBoolean scheduled = new AtomicBoolean();
    private final AtomicLong stamp = new AtomicLong();
    private volatile long deadline;
    private volatile boolean asyncAttempt;

    // owner-only state
    private ConsumerRecord<byte[], byte[]> current;
    private long currentSince;
    private int failures;
    private boolean resultPending;
    private Throwable pendingError;
    private boolean halted;
    /** The records of a run taken from the queue and not yet taken one by one; null when none. */
    private Queued run;
    /** A task {@link #nextQueued} met in the queue, to run before anything after it; null when none. */
    private LaneTask taskTaken;

    /**
     * @param shared for unordered processing, the partition's queue that all its lanes take records from when their
     *               own queue is empty: a lane stuck on one record then holds up no other record; null when ordered
     */
    public Lane(PartitionWork partition, Invoker invoker, WorkerPool pool,
            Queue<ConsumerRecord<byte[], byte[]>> shared) {
        this.partition = partition;
        this.invoker = invoker;
        this.pool = pool;
        this.shared = shared;
    }

    /** Queues a record and makes sure a worker will get to it. Consumer thread only. */
    public void add(ConsumerRecord<byte[], byte[]> record) {
        addRun(new Object[] {record});
    }

    /**
     * Queues records in order as one entry, and makes sure a worker will get to them: a fetch's records for one lane
     * take one queue node, not one each (a node and its atomic hand-over per record showed in the mirror's profile).
     * Consumer thread only.
     */
    public void addAll(List<ConsumerRecord<byte[], byte[]>> records) {
        addRun(records.toArray());
    }

    /**
     * As {@link #addAll}, with the records ({@code ConsumerRecord<byte[], byte[]>} each, in order) in an array that
     * is the lane's from now on. Consumer thread only.
     */
    public void addRun(Object[] records) {
        if (records.length > 0) {
            queue.offer(new Queued(records, null));
            schedule();
        }
    }

    /** Queues a task to run after the records queued so far. */
    public void addTask(LaneTask task) {
        queue.offer(new Queued(null, task));
        schedule();
    }

    /** Makes sure a worker will look at this lane; true when this call scheduled it. */
    public boolean schedule() {
        if (scheduled.compareAndSet(false, true)) {
            pool.submit(this);
            return true;
        }
        return false;
    }

    /**
     * A worker's time with the lane: turns of up to {@link #TURN} records, for as long as no other lane waits.
     *
     * @return false when the watchdog took the lane over while this thread was stuck in an attempt: the caller must
     *         retire this thread (a replacement was started)
     */
    boolean run() {
        do {
            TurnEnd end = turn();
            if (end == TurnEnd.TAKEN_OVER) {
                return false;
            }
            if (end == TurnEnd.SUSPENDED) {
                return true; // the lane is no longer this thread's: the attempt's completion hands it on
            }
        } while (anotherTurnHere());
        release();
        return true;
    }

    /**
     * Whether the worker goes on with this lane for another turn: when it has more to do and no other lane waits for
     * a worker, since handing it through the pool's queue would only wake another worker to take it (a futex call and
     * a context switch per turn, which showed as system time in the mirror's profile). A turn still ends at
     * {@link #TURN} records, so a lane that arrives meanwhile waits at most one turn.
     */
    private boolean anotherTurnHere() {
        return hasWork() && !pool.othersWaiting();
    }

    private boolean hasWork() {
        boolean accepting = !halted && partition.isOpen();
        return current != null || run != null || !queue.isEmpty()
                || (accepting && shared != null && !shared.isEmpty());
    }

    /**
     * The next record in the order they were added; null when nothing is queued, or when a task comes first: then it
     * is in {@link #taskTaken}.
     */
    @SuppressWarnings("unchecked")
    private ConsumerRecord<byte[], byte[]> nextQueued() {
        if (run == null) {
            Queued next = queue.poll();
            if (next == null) {
                return null;
            }
            if (next.task != null) {
                taskTaken = next.task;
                return null;
            }
            run = next;
        }
        Object record = run.records[run.next++];
        if (run.next == run.records.length) {
            run = null;
        }
        return (ConsumerRecord<byte[], byte[]>) record;
    }

    /**
     * What the consumer thread queues: records added together (taken one by one by the lane's owner), or a task. One
     * class for both, told apart by a field: when the queue held records, runs and tasks, the compiled lane loop's
     * type check expected what it had seen, and every new kind that came later threw the compiled loop away: {@link #turn}
     * was compiled by C2 eight times in a mirror's ten-second copy, four since (-XX:+PrintCompilation).
     */
    private static final class Queued {
        final Object[] records;
        final LaneTask task;
        int next;

        Queued(Object[] records, LaneTask task) {
            this.records = records;
            this.task = task;
        }
    }

    /** How a turn ended. */
    private enum TurnEnd {
        /** After {@link #TURN} records, or with nothing left to take. */
        ENDED,
        /** An asynchronous attempt goes on: its completion owns the lane now. */
        SUSPENDED,
        /** The watchdog took the lane over while this thread was stuck in an attempt. */
        TAKEN_OVER
    }

    private TurnEnd turn() {
        for (int n = 0; n < TURN; n++) {
            boolean accepting = !halted && partition.isOpen();
            // an attempt that ended while no worker held the lane (asynchronous, or timed out) is settled even when
            // closed: a revocation's drain waits for it, and a success is reported, since its work was done
            if (current != null && !accepting && !resultPending) {
                current = null; // stays pending: revoked, draining, or the engine stops because of it
            }
            if (current == null) {
                ConsumerRecord<byte[], byte[]> record = nextQueued();
                if (taskTaken != null) {
                    LaneTask task = taskTaken;
                    taskTaken = null;
                    task.run();
                    continue;
                }
                if (record == null && shared != null && accepting) {
                    record = shared.poll();
                }
                if (record == null) {
                    break;
                }
                if (!accepting) {
                    continue; // dropped, not done: the next owner of the partition processes it
                }
                current = record;
                currentSince = System.nanoTime();
                failures = 0;
            }
            Throwable error;
            if (resultPending) {
                error = pendingError;
                resultPending = false;
                pendingError = null;
            } else {
                if (!partition.attemptStarted()) {
                    // closed (revoked, draining) after this record was taken, or interrupted while waiting for an
                    // in-flight permit (the engine is stopping): it stays pending for the next owner
                    halted = true;
                    continue;
                }
                asyncAttempt = false;
                deadline = System.nanoTime() + pool.timeoutNanos(); // before the stamp: see expireIfOverdue
                long s = stamp.incrementAndGet();
                CompletionStage<?> stage = null;
                error = null;
                try {
                    stage = invoker.attempt(current);
                } catch (Throwable t) {
                    error = t;
                }
                if (stage != null && !isDone(stage)) {
                    return suspend(s, stage) ? TurnEnd.SUSPENDED : TurnEnd.TAKEN_OVER;
                }
                if (!stamp.compareAndSet(s, s + 1)) {
                    return TurnEnd.TAKEN_OVER; // overran its timeout; the watchdog owns the lane now
                }
                partition.attemptEnded();
                if (stage != null) {
                    error = failureOf(stage);
                }
            }
            if (error == null) {
                done();
                partition.attemptSettled();
            } else {
                fail(error);
            }
        }
        return TurnEnd.ENDED;
    }

    /**
     * Reported at once, record by record: a completion held back until a later record finishes could be held for as
     * long as that record is stuck, and then replayed after a restart although it was done.
     */
    private void done() {
        partition.completed(current.offset(), RecordSize.of(current), currentSince);
        current = null;
    }

    /** Settles the failed attempt: before the backoff when it is retried, after the failure outcome otherwise. */
    private void fail(Throwable error) {
        failures++;
        if (failures < invoker.maxAttempts() && invoker.retriable(error)) {
            invoker.retrying();
            partition.attemptSettled(); // a drain need not wait out the backoff: the record is not done
            try {
                TimeUnit.NANOSECONDS.sleep(invoker.backoffNanos(failures));
            } catch (InterruptedException e) {
                // the engine is stopping; the record stays current and pending
                halted = true;
            }
            return;
        }
        // a dead letter is written before the record settles: a drain waits for it, so it is never written twice
        if (invoker.giveUp(current, error, failures)) {
            partition.givenUp(current.offset());
            done();
        } else {
            halted = true; // the engine stops because of this record: it and all behind it stay pending
        }
        partition.attemptSettled();
    }

    /**
     * The attempt goes on after this thread leaves; its completion brings the lane back to the pool. False when the
     * watchdog took the lane over while the attempt's synchronous part ran: this thread no longer owns the lane, and
     * marked it suspended for good (a review), so the lane's later attempts were expired as suspended ones, their
     * stuck workers never replaced.
     */
    private boolean suspend(long s, CompletionStage<?> stage) {
        synchronized (this) { // against the watchdog's take-over (see the class comment)
            if (stamp.get() != s) {
                return false;
            }
            asyncAttempt = true;
            pool.suspended(this);
        }
        stage.whenComplete((value, error) -> {
            if (stamp.compareAndSet(s, s + 1)) {
                pool.resumed(this);
                partition.attemptEnded();
                resume(unwrap(error));
            }
            // else: the watchdog timed it out already; a late completion is ignored
        });
        return true;
    }

    private void resume(Throwable error) {
        pendingError = error;
        resultPending = true;
        pool.submit(this);
    }

    /**
     * Called by the watchdog: ends the running attempt as failed (with a {@link TimeoutException}) if it overran its
     * deadline, and hands the lane to a new owner.
     *
     * @param worker the thread found running this lane, or null when checking a suspended asynchronous attempt
     * @return whether the attempt was expired; when {@code worker} is not null, that thread is stuck and retires
     */
    boolean expireIfOverdue(long now, Thread worker) {
        // read the stamp before the deadline: a deadline is written before its stamp, so it is never older
        long s = stamp.get();
        if ((s & 1) == 0 || now - deadline < 0) {
            return false;
        }
        synchronized (this) { // against a worker turning its attempt asynchronous (see the class comment)
            if (worker != null && asyncAttempt) {
                return false; // the worker left it to its asynchronous part: the suspended lanes' look expires it
            }
            if (!stamp.compareAndSet(s, s + 1)) {
                return false; // it just ended by itself
            }
        }
        pool.resumed(this);
        partition.attemptEnded();
        // counted before the retry is handed on: a retry that completed at once was seen before its timeout's count
        pool.timedOut();
        if (worker != null) {
            worker.interrupt(); // a courtesy: a handler that honours interrupts gives its thread back sooner
        }
        resume(new TimeoutException("processing did not finish within "
                + TimeUnit.NANOSECONDS.toMillis(pool.timeoutNanos()) + " ms"));
        return true;
    }

    private void release() {
        scheduled.set(false);
        // anything added after the last poll but before the flag was cleared must not be stranded
        if (hasWork()) {
            schedule();
        }
    }

    private static boolean isDone(CompletionStage<?> stage) {
        return stage instanceof CompletableFuture<?> f && f.isDone();
    }

    private static Throwable failureOf(CompletionStage<?> stage) {
        try {
            ((CompletableFuture<?>) stage).get();
            return null;
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return e;
        } catch (java.util.concurrent.CancellationException e) {
            return e;
        }
    }

    private static Throwable unwrap(Throwable error) {
        return error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
    }
}
