package io.sluice.core.internal.consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.core.AsyncRecordHandler;
import io.sluice.core.FailureOutcome;
import io.sluice.core.OutOfRangePolicy;
import io.sluice.core.RecordsLostException;
import io.sluice.core.StartPosition;
import io.sluice.core.TimestampStart;
import io.sluice.core.internal.failure.Backoff;
import io.sluice.core.internal.failure.FailurePolicy;
import io.sluice.core.internal.failure.RecordProcessor;
import io.sluice.core.internal.lane.WorkerPool;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Partitions leaving: a revoked one finishes its records in flight and commits; a lost one commits nothing. (The
 * assigning side needs the topics' IDs from a cluster; the integration tests cover it.) The revocation's drain is
 * also tested against lanes on a real one-worker pool running the engine's record processor, at the two moments a
 * worker's report and the drain can cross: a record taken just before the partition closed, and a record finished
 * while no worker had reported it yet.
 */
class AssignmentsTest {

    private static final TopicPartition P0 = new TopicPartition("orders", 0);
    private static final TopicPartition P1 = new TopicPartition("orders", 1);
    private static final TopicPartition P2 = new TopicPartition("orders", 2);
    private static final TopicPartition P3 = new TopicPartition("orders", 3);
    /** Only bounds a test that fails: a test that passes never waits this long. */
    private static final long WAIT_NANOS = TimeUnit.SECONDS.toNanos(10);

    private final ConsumerThreadFixture loop = new ConsumerThreadFixture();
    private final Gaps gaps = new Gaps();
    private final Assignments assignments = new Assignments(loop.consumer,
            new StartSettings(StartPosition.EARLIEST, OutOfRangePolicy.FAIL, null, TimestampStart.UNCOMMITTED, 64,
                    Duration.ofSeconds(10)),
            loop.commitPoint, loop.commits, null, loop.partitions, null, loop.completions, loop.pauses, loop.budget,
            null, gaps);
    private final PartitionState p0 = loop.assign(P0, 0);
    private final PartitionState p1 = loop.assign(P1, 0);
    private final WorkerPool oneWorker = new WorkerPool("revoke-test", 1, TimeUnit.MINUTES.toNanos(10));
    private final List<Throwable> engineFailures = new CopyOnWriteArrayList<>();

    @AfterEach
    void stopPool() {
        oneWorker.shutdown(1000);
        assertEquals(List.of(), engineFailures);
    }

    @Test
    void aRevokedPartitionFinishesItsRecordInFlightThenCommitsAndIsForgotten() throws InterruptedException {
        loop.handOut(p0, 0, 3, 100);
        p0.completed(0, 100, System.nanoTime());
        p0.completed(1, 100, System.nanoTime());
        p0.attemptStarted(); // record 2 runs on a worker
        Thread worker = new Thread(() -> {
            while (p0.isOpen()) {
                Thread.onSpinWait(); // the revocation closes the partition first, then waits for this record
            }
            p0.completed(2, 100, System.nanoTime());
            p0.attemptEnded();
            p0.attemptSettled();
        }, "worker");
        worker.start();

        assignments.onPartitionsRevoked(List.of(P0));
        worker.join();

        assertEquals(3, loop.group.committedNow().get(P0).offset(), "the record in flight is done, not replayed");
        assertNull(loop.partitions.get(P0));
        assertSame(p1, loop.partitions.get(P1));
        assertEquals(0, loop.budget.used());
        assertEquals(1, assignments.revoked());
    }

    /**
     * Its next owner stops it again from the same commit; the loss found here stays this run's failure all the same: an
     * instance that logged a loss and then said "stopped cleanly" (exit 0) misled the person who read both.
     */
    @Test
    void aPartitionStoppedAtAGapThatLeavesIsNoLongerStoppedHereButItsLossIsStillTheRuns() {
        gaps.stop(new RecordsLostException.Loss(P0, RecordsLostException.Kind.DELETED, 5, 10),
                "orders-0: offsets 5 to 9 were deleted");
        gaps.stop(new RecordsLostException.Loss(P1, RecordsLostException.Kind.DELETED, 7, 9),
                "orders-1: offsets 7 to 8 were deleted");

        assignments.onPartitionsRevoked(List.of(P0));
        assignments.onPartitionsLost(List.of(P1));

        assertEquals(java.util.Map.of(), gaps.now(), "stopped here no more");
        RecordsLostException lost = gaps.loss().orElseThrow();
        assertEquals("records lost or log reset: orders-0: offsets 5 to 9 were deleted; orders-1: offsets 7 to 8 were "
                + "deleted", lost.lost());
        assertEquals(List.of(P0, P1), lost.losses().stream().map(RecordsLostException.Loss::partition).toList());
    }

    @Test
    void aLostPartitionIsForgottenWithoutACommit() {
        loop.handOut(p0, 0, 3, 100);
        p0.completed(0, 100, System.nanoTime());
        loop.completions.take();

        assignments.onPartitionsLost(List.of(P0));

        assertEquals(List.of(), loop.group.sent(), "another member may own it already");
        assertFalse(p0.isOpen(), "no record of it starts any more");
        assertNull(loop.partitions.get(P0));
        assertEquals(0, loop.budget.used());
        assertEquals(1, assignments.lost());
    }

    @Test
    void aRecordWhoseWorkerWasHeldUpPastTheRevocationNeverStarts() throws InterruptedException {
        Semaphore inFlight = new Semaphore(0); // every permit taken by records of other partitions
        List<Long> handled = new CopyOnWriteArrayList<>();
        PartitionState p2 = loop.assign(P2, 0, oneWorker, async(record -> {
            handled.add(record.offset());
            return CompletableFuture.completedFuture(null);
        }), inFlight);
        TestPartitions.dispatch(p2, 0, 1);
        // the worker took record 0 while the partition was open, then waits for a permit: the widest form of the
        // moment between a worker's look at the partition and its record counting as running
        awaitTrue("the worker waits for a permit", inFlight::hasQueuedThreads);

        assignments.onPartitionsRevoked(List.of(P2));
        inFlight.release(); // a record of another partition finished
        // a permit is taken before its waiter leaves the queue, so this holds only once the worker gave it back
        awaitTrue("the worker took the permit and gave it back",
                () -> !inFlight.hasQueuedThreads() && inFlight.availablePermits() == 1);

        assertEquals(0, loop.group.committedNow().get(P2).offset(), "record 0 is left to the next owner");
        assertEquals(List.of(), handled, "record 0 must not run after the revocation committed without it");
    }

    @Test
    void aRecordFinishedBeforeTheRevocationIsInItsCommitThoughNoWorkerHadReportedItYet() throws Exception {
        CompletableFuture<Void> remoteCall = new CompletableFuture<>();
        CountDownLatch workerBusy = new CountDownLatch(1);
        CountDownLatch workerFree = new CountDownLatch(1);
        PartitionState p2 = loop.assign(P2, 0, oneWorker, async(record -> remoteCall), null);
        PartitionState p3 = loop.assign(P3, 0, oneWorker, RecordProcessor.blocking(new ByteArrayDeserializer(),
                new ByteArrayDeserializer(), record -> {
                    workerBusy.countDown();
                    workerFree.await();
                }, failurePolicy()), null);
        TestPartitions.dispatch(p2, 0, 1); // its attempt suspends, waiting for the remote call
        TestPartitions.dispatch(p3, 0, 1);
        assertTrue(workerBusy.await(10, TimeUnit.SECONDS), "the only worker runs p3's record");
        remoteCall.complete(null); // p2's record is done; its lane waits for the busy worker to report it

        Thread consumerThread = new Thread(() -> assignments.onPartitionsRevoked(List.of(P2)), "consumer");
        consumerThread.start();
        awaitTrue("the revocation waits for the record, or ended without it",
                () -> consumerThread.getState() == Thread.State.TIMED_WAITING
                        || consumerThread.getState() == Thread.State.TERMINATED);
        workerFree.countDown();
        consumerThread.join();

        assertEquals(1, loop.group.committedNow().get(P2).offset(), "the finished record is not replayed");
    }

    /** The engine's record processor for an asynchronous handler. */
    private RecordProcessor async(AsyncRecordHandler<byte[], byte[]> handler) {
        return RecordProcessor.async(new ByteArrayDeserializer(), new ByteArrayDeserializer(), handler,
                failurePolicy());
    }

    /** One attempt, then the engine stops: no test here expects a failure. */
    private FailurePolicy failurePolicy() {
        return new FailurePolicy(1, new Backoff(Duration.ZERO, Duration.ZERO), FailureOutcome.STOP, null,
                engineFailures::add);
    }

    private static void awaitTrue(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + WAIT_NANOS;
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "timed out waiting until " + what);
            Thread.onSpinWait();
        }
    }
}
