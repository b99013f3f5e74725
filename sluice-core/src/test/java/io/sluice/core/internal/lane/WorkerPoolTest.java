package io.sluice.core.internal.lane;

import static io.sluice.core.internal.lane.RecordingPartition.WAIT_SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The watchdog and shutdown of the worker pool. The processing timeout is 200 ms (the watchdog looks every 50 ms):
 * short for a test, long enough that no attempt that returns at once overruns it on a loaded machine. The tests
 * wait on what the pool hands on (completions of the retried record), never on time.
 */
class WorkerPoolTest {

    private static final long TIMEOUT_NANOS = TimeUnit.MILLISECONDS.toNanos(200);

    private final RecordingPartition partition = new RecordingPartition();
    /** Holds the first attempt at record 0 in a handler that ignores interrupts, as a stuck handler does. */
    private final CountDownLatch unstick = new CountDownLatch(1);
    private final AtomicReference<Thread> stuckThread = new AtomicReference<>();
    private final AtomicInteger attemptsAtZero = new AtomicInteger();
    private final ScriptedInvoker stuckOnce = new ScriptedInvoker(record -> {
        if (record.offset() == 0 && attemptsAtZero.getAndIncrement() == 0) {
            stuckThread.set(Thread.currentThread());
            awaitIgnoringInterrupts(unstick);
        }
        return null;
    }, 2, false);
    private WorkerPool pool;

    @AfterEach
    void stop() {
        unstick.countDown();
        if (pool != null) {
            pool.shutdown(1000);
        }
    }

    @Test
    void theWatchdogFailsAnOverrunAttemptHandsTheLaneOnAndReplacesTheStuckWorker() throws InterruptedException {
        pool = new WorkerPool("watchdog-test", 1, TIMEOUT_NANOS);
        Lane lane = new Lane(partition, stuckOnce, pool, null);
        lane.add(TestRecords.at(0));
        lane.add(TestRecords.at(1));

        // the only worker is stuck: only a replacement can retry record 0 and go on to record 1
        assertEquals(List.of(0L, 1L), partition.awaitCompletions(2));
        assertEquals(1, pool.timeouts());
        assertEquals(1, stuckOnce.failures.size());
        assertInstanceOf(TimeoutException.class, stuckOnce.failures.get(0));
        assertEquals(2, pool.threads(), "the replacement, and the stuck thread until its handler returns");
        assertEquals(0, partition.running(), "the watchdog ended the abandoned attempt");

        unstick.countDown();
        Thread stuck = stuckThread.get();
        stuck.join(TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
        assertFalse(stuck.isAlive(), "the stuck worker retires when its handler returns");
        assertEquals(List.of(0L, 1L), partition.completedSoFar(), "its late completion is ignored");
        assertEquals(0, partition.running(), "and its attempt is not ended twice");
        assertEquals(1, pool.threads());
        assertEquals(1, pool.timeouts());
    }

    /**
     * An attempt whose synchronous part overran the timeout, then returned a stage not done yet: the watchdog had
     * taken the lane over, and the stuck thread still marked it suspended, for good (a review).
     */
    @Test
    void aTakenOverAttemptThatReturnsAnUnfinishedStageLeavesTheLaneToItsNewOwner() throws InterruptedException {
        pool = new WorkerPool("watchdog-test", 1, TIMEOUT_NANOS);
        ScriptedInvoker invoker = new ScriptedInvoker(record -> {
            if (record.offset() == 0 && attemptsAtZero.getAndIncrement() == 0) {
                stuckThread.set(Thread.currentThread());
                awaitIgnoringInterrupts(unstick);
                return new CompletableFuture<Void>(); // its synchronous part returns, its stage never completes
            }
            return null;
        }, 2, false);
        Lane lane = new Lane(partition, invoker, pool, null);
        lane.add(TestRecords.at(0));
        lane.add(TestRecords.at(1));
        assertEquals(List.of(0L, 1L), partition.awaitCompletions(2), "retried by the replacement");

        unstick.countDown();
        Thread stuck = stuckThread.get();
        stuck.join(TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
        assertFalse(stuck.isAlive(), "the stuck worker retires when its handler returns");
        assertEquals(0, pool.suspendedLanes(), "no lane is left suspended by a thread that no longer owned it");
        lane.add(TestRecords.at(2));
        assertEquals(List.of(0L, 1L, 2L), partition.awaitCompletions(1), "the lane still works");
    }

    @Test
    void aLateCompletionOfATimedOutAsynchronousAttemptIsIgnored() throws InterruptedException {
        pool = new WorkerPool("watchdog-test", 1, TIMEOUT_NANOS);
        CompletableFuture<Void> abandoned = new CompletableFuture<>();
        AtomicInteger attempts = new AtomicInteger();
        ScriptedInvoker invoker = new ScriptedInvoker(
                record -> attempts.getAndIncrement() == 0 ? abandoned : null, 2, false);
        Lane lane = new Lane(partition, invoker, pool, null);
        lane.add(TestRecords.at(0));

        assertEquals(List.of(0L), partition.awaitCompletions(1), "retried after the timeout");
        assertEquals(1, pool.timeouts());
        assertInstanceOf(TimeoutException.class, invoker.failures.get(0));
        assertEquals(1, pool.threads(), "no worker was stuck, so none was replaced");

        abandoned.complete(null); // runs the lane's completion hook here, at once

        assertEquals(List.of(0L), partition.completedSoFar());
        assertEquals(0, partition.running());
        lane.add(TestRecords.at(1));
        assertEquals(List.of(0L, 1L), partition.awaitCompletions(1), "the lane still works");
    }

    @Test
    void workersStartAsLanesNeedThemAndNeverPastThePoolsSize() throws InterruptedException {
        pool = new WorkerPool("growth-test", 2, TimeUnit.MINUTES.toNanos(10));
        assertEquals(0, pool.threads(), "no lane yet, no worker");
        CountDownLatch release = new CountDownLatch(1);
        BlockingQueue<Long> started = new LinkedBlockingQueue<>();
        ScriptedInvoker held = ScriptedInvoker.of(record -> {
            started.add(record.offset());
            release.await();
            return null;
        });
        Lane first = new Lane(partition, held, pool, null);
        Lane second = new Lane(partition, held, pool, null);
        Lane third = new Lane(partition, held, pool, null);

        first.add(TestRecords.at(0));
        assertEquals(0L, started.poll(WAIT_SECONDS, TimeUnit.SECONDS));
        assertEquals(1, pool.threads(), "one lane, one worker");
        second.add(TestRecords.at(1));
        assertEquals(1L, started.poll(WAIT_SECONDS, TimeUnit.SECONDS), "a lane waiting while no worker is idle "
                + "starts a worker");
        assertEquals(2, pool.threads());
        third.add(TestRecords.at(2));
        assertEquals(2, pool.threads(), "the pool's size");
        assertEquals(null, started.poll(50, TimeUnit.MILLISECONDS), "the third lane waits for a worker");

        release.countDown();
        partition.awaitCompletions(3);
        assertEquals(2, pool.threads());
    }

    @Test
    void shutdownEndsEveryIdleWorker() throws InterruptedException {
        startIdleWorkers(3);
        pool.shutdown(TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
        assertEquals(0, pool.threads());
    }

    /**
     * An interrupt of the thread that shuts the pool down (a stray one, left by other code on a shared thread) does
     * not cut the wait short: the shutdown returned at once and left workers running (a flake of the test above).
     */
    @Test
    void shutdownWaitsForTheWorkersThoughTheCallerIsInterruptedAndKeepsTheInterrupt() throws InterruptedException {
        startIdleWorkers(2);
        Thread.currentThread().interrupt();
        pool.shutdown(TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
        assertTrue(Thread.interrupted(), "the caller's interrupt is kept for it");
        assertEquals(0, pool.threads());
    }

    /** A pool of {@code n} workers, all started (each held its record until all ran one) and idle now. */
    private void startIdleWorkers(int n) throws InterruptedException {
        pool = new WorkerPool("shutdown-test", n, TimeUnit.MINUTES.toNanos(10));
        CountDownLatch allStarted = new CountDownLatch(n);
        ScriptedInvoker meeting = ScriptedInvoker.of(record -> {
            allStarted.countDown();
            allStarted.await(); // each holds its worker until all run: n workers
            return null;
        });
        for (int i = 0; i < n; i++) {
            new Lane(partition, meeting, pool, null).add(TestRecords.at(i));
        }
        partition.awaitCompletions(n);
        assertEquals(n, pool.threads());
    }

    @Test
    void shutdownDoesNotWaitForAWorkerStuckInAHandler() throws InterruptedException {
        pool = new WorkerPool("shutdown-test", 1, TIMEOUT_NANOS);
        Lane lane = new Lane(partition, stuckOnce, pool, null);
        lane.add(TestRecords.at(0));
        partition.awaitCompletions(1); // retried by the replacement: the first worker is stuck for good

        long start = System.nanoTime();
        pool.shutdown(TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
        long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

        assertTrue(stuckThread.get().isAlive(), "still stuck in its handler");
        assertTrue(tookMillis < TimeUnit.SECONDS.toMillis(WAIT_SECONDS) / 2, "shutdown took " + tookMillis + " ms");
        assertEquals(1, pool.threads(), "only the stuck thread is left, and it retires on its own");
    }

    private static void awaitIgnoringInterrupts(CountDownLatch latch) {
        boolean interrupted = false;
        while (true) {
            try {
                latch.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
