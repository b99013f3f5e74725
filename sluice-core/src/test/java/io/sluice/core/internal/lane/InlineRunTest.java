package io.sluice.core.internal.lane;

import static io.sluice.core.internal.lane.RecordingPartition.WAIT_SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Runs written on the calling thread, the consumer thread, when the lane is idle and the sink allows it
 * ({@link Lane#runHere}, docs/design/inline-runs.md): on this thread, in order with what workers run, never while a
 * worker holds the lane, and a failure settled by a worker, not here.
 */
class InlineRunTest {

    @RegisterExtension
    final TestPools pools = new TestPools("inline-test");
    private final RecordingPartition partition = new RecordingPartition();
    /** The thread of each attempt, by offset. */
    private final List<String> threads = Collections.synchronizedList(new ArrayList<>());

    private WorkerPool pool(int threads) {
        return pools.of(threads);
    }

    private static Object[] run(long from, long to) {
        return LongStream.range(from, to).mapToObj(TestRecords::at).toArray();
    }

    private ScriptedInvoker recordingThreads() {
        return ScriptedInvoker.of(record -> {
            threads.add(record.offset() + "@" + Thread.currentThread().getName());
            return null;
        });
    }

    @Test
    void aRunGivenToAnIdleLaneIsWrittenOnTheCallingThreadAndReported() {
        Lane lane = new Lane(partition, recordingThreads(), pool(2), null);
        assertTrue(lane.runHere(run(0, 100), () -> true));
        // done before runHere returned: no wait on any other thread
        assertEquals(offsets(0, 100), partition.completedSoFar());
        String here = Thread.currentThread().getName();
        assertTrue(threads.stream().allMatch(t -> t.endsWith("@" + here)), threads.toString());
        assertEquals(0, partition.unsettled(), "every attempt begun here was settled here");
    }

    @Test
    void aRunTheSinkDoesNotPromiseGoesToAWorkerAsIfQueued() throws InterruptedException {
        Lane lane = new Lane(partition, recordingThreads(), pool(2), null);
        assertTrue(lane.runHere(run(0, 10), () -> false), "taken: queued for a worker");
        assertEquals(offsets(0, 10), partition.awaitCompletions(10));
        String here = Thread.currentThread().getName();
        assertTrue(threads.stream().noneMatch(t -> t.endsWith("@" + here)), threads.toString());
    }

    @Test
    void aLaneAWorkerHoldsIsNotRunHereAndTheCallerQueuesTheRunBehindWhatTheWorkerDoes()
            throws InterruptedException {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch inside = new CountDownLatch(1);
        Lane lane = new Lane(partition, ScriptedInvoker.of(record -> {
            threads.add(record.offset() + "@" + Thread.currentThread().getName());
            if (record.offset() == 0) {
                inside.countDown();
                assertTrue(release.await(WAIT_SECONDS, TimeUnit.SECONDS));
            }
            return null;
        }), pool(2), null);
        lane.addRun(run(0, 5));
        assertTrue(inside.await(WAIT_SECONDS, TimeUnit.SECONDS));
        AtomicInteger asked = new AtomicInteger();
        assertFalse(lane.runHere(run(5, 10), () -> asked.incrementAndGet() > 0), "a worker holds the lane");
        assertEquals(0, asked.get(), "the sink is asked only once the lane is the caller's");
        lane.addRun(run(5, 10));
        release.countDown();
        assertEquals(offsets(0, 10), partition.awaitCompletions(10));
    }

    @Test
    void aTaskAddedAfterARunHereRunsAfterItOnAWorker() throws InterruptedException {
        Lane lane = new Lane(partition, recordingThreads(), pool(2), null);
        List<String> order = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch taskRan = new CountDownLatch(1);
        assertTrue(lane.runHere(run(0, 3), () -> true));
        lane.addTask(() -> {
            order.add("task after " + partition.completedSoFar() + " on " + Thread.currentThread().getName());
            taskRan.countDown();
        });
        assertTrue(lane.runHere(run(3, 6), () -> true) || addedAnyway(lane, run(3, 6)));
        assertTrue(taskRan.await(WAIT_SECONDS, TimeUnit.SECONDS));
        assertEquals(offsets(0, 6), partition.awaitCompletions(6));
        assertTrue(order.get(0).startsWith("task after [0, 1, 2]"), order.toString());
        assertNotEquals(Thread.currentThread().getName(), order.get(0).substring(order.get(0).indexOf(" on ") + 4));
    }

    private static boolean addedAnyway(Lane lane, Object[] records) {
        lane.addRun(records); // the task's worker still held the lane: queued behind it, as the dispatcher does
        return true;
    }

    @Test
    void aRecordThatFailsHereIsSettledByAWorkerAndTheRestFollowInOrder() throws InterruptedException {
        ScriptedInvoker invoker = new ScriptedInvoker(record -> {
            threads.add(record.offset() + "@" + Thread.currentThread().getName());
            if (record.offset() == 3) {
                throw new IllegalArgumentException("a record the sink rejects");
            }
            return null;
        }, 1, true);
        Lane lane = new Lane(partition, invoker, pool(2), null);
        assertTrue(lane.runHere(run(0, 8), () -> true));
        List<Long> completed = partition.awaitCompletions(8);
        assertEquals(offsets(0, 8), completed, "3 given up as done (a dead letter), the rest after it in order");
        assertEquals(List.of(3L), invoker.givenUp);
        assertEquals(1, invoker.failures.size(), "one attempt at 3, its failure settled once: " + invoker.failures);
        String here = Thread.currentThread().getName();
        assertNotEquals(here, invoker.givenUpOn.get(0), "its dead letter is a worker's to write, not this thread's");
        assertTrue(threads.subList(0, 4).stream().allMatch(t -> t.endsWith("@" + here)), threads.toString());
        assertTrue(threads.subList(4, threads.size()).stream().noneMatch(t -> t.endsWith("@" + here)),
                "after the failure a worker writes the rest: " + threads);
        assertEquals(8, partition.attemptsStarted(), "3 was attempted once, not again by the worker");
        awaitSettled();
    }

    /** A claimed lane that no one runs would make every drain task wait out its timeout. */
    @Test
    void aPromiseThatThrowsLeavesTheRunToAWorkerAndTheLaneUnclaimed() throws InterruptedException {
        Lane lane = new Lane(partition, recordingThreads(), pool(2), null);
        IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> lane.runHere(run(0, 5), () -> {
            throw new IllegalStateException("the sink's look failed");
        }));
        assertEquals("the sink's look failed", thrown.getMessage());
        assertEquals(offsets(0, 5), partition.awaitCompletions(5), "written by a worker");
        CountDownLatch taskRan = new CountDownLatch(1);
        lane.addTask(taskRan::countDown);
        assertTrue(taskRan.await(WAIT_SECONDS, TimeUnit.SECONDS), "the lane still takes tasks");
    }

    @Test
    void aClosedPartitionsRunIsNotWrittenHere() throws InterruptedException {
        Lane lane = new Lane(partition, recordingThreads(), pool(2), null);
        partition.close();
        assertTrue(lane.runHere(run(0, 5), () -> true));
        assertEquals(List.of(), partition.completedSoFar(), "left for the partition's next owner");
        assertEquals(0, partition.attemptsStarted());
    }

    /**
     * The consumer thread claims the lane as workers give it back, at random moments (a seeded race of
     * {@code release} against {@code runHere}; the seed chooses the runs, not the threads' timing): every record once,
     * in order, and no lane left idle with work. One worker and a second lane always busy, so that a worker gives the
     * lane up after a turn with records of a run left, and a claim can meet them.
     */
    @Test
    void claimsRacingWorkersGivingTheLaneBackLoseAndRepeatNothing() throws InterruptedException {
        long seed = System.nanoTime();
        System.out.println("[inline-run] seed " + seed);
        Random random = new Random(seed);
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        List<Long> attempted = Collections.synchronizedList(new ArrayList<>());
        WorkerPool oneWorker = pool(1);
        Lane lane = new Lane(partition, ScriptedInvoker.of(record -> {
            if (inside.incrementAndGet() > 1) {
                overlaps.incrementAndGet();
            }
            attempted.add(record.offset());
            inside.decrementAndGet();
            return null;
        }), oneWorker, null);
        RecordingPartition otherPartition = new RecordingPartition();
        Lane other = new Lane(otherPartition, ScriptedInvoker.of(record -> null), oneWorker, null);
        long next = 0;
        long otherNext = 0;
        for (int i = 0; i < 2_000; i++) {
            other.addRun(run(otherNext, otherNext + Lane.TURN));
            otherNext += Lane.TURN;
            int size = 1 + random.nextInt(3 * Lane.TURN);
            Object[] records = run(next, next + size);
            next += size;
            if (random.nextInt(4) == 0) {
                lane.addTask(() -> attempted.add(-1L)); // a checkpoint: always a worker's
            }
            if (!lane.runHere(records, random::nextBoolean)) {
                lane.addRun(records);
            }
            if (random.nextInt(8) == 0) {
                Thread.yield();
            }
        }
        List<Long> completed = partition.awaitCompletions((int) next);
        assertEquals(offsets(0, next), completed, "seed " + seed);
        assertEquals(offsets(0, next), attempted.stream().filter(o -> o >= 0).collect(Collectors.toList()),
                "seed " + seed);
        assertEquals(0, overlaps.get(), "two threads ran the lane at once; seed " + seed);
        assertEquals(otherNext, otherPartition.awaitCompletions((int) otherNext).size(), "the other lane was not held up");
        awaitSettled();
    }

    private void awaitSettled() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        while (partition.unsettled() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        assertEquals(0, partition.unsettled(), "every attempt settled");
    }

    private static List<Long> offsets(long from, long to) {
        return LongStream.range(from, to).boxed().collect(Collectors.toList());
    }
}
