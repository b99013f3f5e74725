package io.sluice.core.internal.lane;

import static io.sluice.core.internal.lane.RecordingPartition.WAIT_SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A lane on a real worker pool: strict order within the lane, no pinning to threads, tasks in order with records,
 * the unordered queue, and what a closed partition or a failing record leaves undone. The pools' processing timeout
 * is far beyond any test, so the watchdog never steps in here (see {@link WorkerPoolTest}).
 */
class LaneTest {

    private final List<WorkerPool> pools = new ArrayList<>();
    private final RecordingPartition partition = new RecordingPartition();

    private WorkerPool pool(int threads) {
        WorkerPool pool = new WorkerPool("lane-test", threads, TimeUnit.MINUTES.toNanos(10));
        pools.add(pool);
        return pool;
    }

    @AfterEach
    void stopPools() {
        pools.forEach(p -> p.shutdown(1000));
    }

    @Test
    void recordsOfOneLaneRunOneAfterAnotherInOrderWhileOtherWorkersAreFree() throws InterruptedException {
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        List<Long> attempted = Collections.synchronizedList(new ArrayList<>());
        Lane lane = new Lane(partition, ScriptedInvoker.of(record -> {
            if (inside.incrementAndGet() > 1) {
                overlaps.incrementAndGet();
            }
            attempted.add(record.offset());
            Thread.yield(); // widen the window in which a second worker could wrongly run the lane
            inside.decrementAndGet();
            return null;
        }), pool(4), null);

        // added while workers run the lane, so adds race the end of each turn (several turns of Lane.TURN)
        for (long offset = 0; offset < 500; offset++) {
            lane.add(TestRecords.at(offset));
        }

        assertEquals(offsets(0, 500), partition.awaitCompletions(500));
        assertEquals(offsets(0, 500), attempted);
        assertEquals(0, overlaps.get(), "two workers ran the same lane at once");
    }

    @Test
    void aLaneGivesItsWorkerUpAfterATurnSoALaneWaitingBehindItIsPickedUp() throws InterruptedException {
        WorkerPool oneWorker = pool(1);
        CountDownLatch allQueued = new CountDownLatch(1);
        ScriptedInvoker invoker = holdingRecordZeroUntil(allQueued);
        Lane busy = new Lane(partition, invoker, oneWorker, null);
        Lane waiting = new Lane(partition, invoker, oneWorker, null);
        for (long offset = 0; offset < 3 * Lane.TURN; offset++) {
            busy.add(TestRecords.at(offset));
        }
        waiting.add(TestRecords.at(1000));
        allQueued.countDown();

        List<Long> completed = partition.awaitCompletions(3 * Lane.TURN + 1);
        assertEquals(Lane.TURN, completed.indexOf(1000L),
                "the waiting lane runs right after the busy lane's first turn: " + completed);
    }

    @Test
    void aLaneWithMoreThanATurnKeepsItsWorkerWhileNoOtherLaneWaits() throws InterruptedException {
        WorkerPool pool = pool(2);
        CountDownLatch allQueued = new CountDownLatch(1);
        Lane lane = new Lane(partition, holdingRecordZeroUntil(allQueued), pool, null);
        for (long offset = 0; offset < 5 * Lane.TURN; offset++) {
            lane.add(TestRecords.at(offset));
        }
        allQueued.countDown();

        assertEquals(offsets(0, 5 * Lane.TURN), partition.awaitCompletions(5 * Lane.TURN));
        assertEquals(1, pool.handOffs(), "five turns on one worker: the lane went through the pool's queue only when "
                + "its first record was added, never between turns (which would wake another worker for nothing)");
    }

    @Test
    void aLaneStuckInARecordHoldsUpNoOtherLane() throws InterruptedException {
        WorkerPool twoWorkers = pool(2);
        CountDownLatch unstick = new CountDownLatch(1);
        ScriptedInvoker invoker = holdingRecordZeroUntil(unstick);
        new Lane(partition, invoker, twoWorkers, null).add(TestRecords.at(0));
        List<Lane> others = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            others.add(new Lane(partition, invoker, twoWorkers, null));
        }
        for (long offset = 1; offset <= 50; offset++) {
            others.get((int) (offset % others.size())).add(TestRecords.at(offset));
        }

        List<Long> whileStuck = partition.awaitCompletions(50);
        assertEquals(offsets(1, 51), whileStuck.stream().sorted().collect(Collectors.toList()),
                "the one free worker took every other lane in turn");
        unstick.countDown();
        assertEquals(0L, partition.awaitCompletions(1).get(50));
    }

    @Test
    void aRecordAddedAfterTheLaneWentIdleIsPickedUp() throws InterruptedException {
        Lane lane = new Lane(partition, ScriptedInvoker.of(record -> null), pool(2), null);
        // one record at a time: each add finds the lane idle or just finishing its turn, never stranded
        for (long offset = 0; offset < 300; offset++) {
            lane.add(TestRecords.at(offset));
            assertEquals(offset, partition.awaitCompletions(1).get((int) offset));
        }
    }

    @Test
    void tasksRunInOrderWithTheRecordsAroundThem() throws InterruptedException {
        List<String> order = Collections.synchronizedList(new ArrayList<>());
        Lane lane = orderRecording(order);
        CountDownLatch lastTask = new CountDownLatch(1);
        List<String> expected = new ArrayList<>();
        for (long offset = 0; offset < 100; offset++) {
            lane.add(TestRecords.at(offset));
            expected.add("record " + offset);
            if (offset % 30 == 29) {
                String name = "task after " + offset;
                lane.addTask(() -> order.add(name));
                expected.add(name);
            }
        }
        lane.addTask(lastTask::countDown);

        assertTrue(lastTask.await(WAIT_SECONDS, TimeUnit.SECONDS));
        assertEquals(expected, order);
    }

    @Test
    void recordsAddedTogetherRunInOrderWithSingleRecordsAndTasksAroundThem() throws InterruptedException {
        List<String> order = Collections.synchronizedList(new ArrayList<>());
        Lane lane = orderRecording(order);
        CountDownLatch lastTask = new CountDownLatch(1);
        List<String> expected = new ArrayList<>();
        long offset = 0;
        for (int size : new int[] {3 * Lane.TURN + 5, 1, 0, 2, 7}) {
            List<ConsumerRecord<byte[], byte[]>> together = new ArrayList<>();
            for (int i = 0; i < size; i++, offset++) {
                together.add(TestRecords.at(offset));
                expected.add("record " + offset);
            }
            lane.addAll(together);
            lane.add(TestRecords.at(offset));
            expected.add("record " + offset++);
            String name = "task after " + (offset - 1);
            lane.addTask(() -> order.add(name));
            expected.add(name);
        }
        lane.addTask(lastTask::countDown);

        assertTrue(lastTask.await(WAIT_SECONDS, TimeUnit.SECONDS));
        assertEquals(expected, order);
    }

    @Test
    void aClosedPartitionStartsNoNewRecordButLetsTheRunningOneFinishAndStillRunsTasks() throws InterruptedException {
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch finish = new CountDownLatch(1);
        ScriptedInvoker invoker = ScriptedInvoker.of(record -> {
            if (record.offset() == 0) {
                running.countDown();
                finish.await();
            }
            return null;
        });
        Lane lane = new Lane(partition, invoker, pool(2), null);
        lane.add(TestRecords.at(0));
        assertTrue(running.await(WAIT_SECONDS, TimeUnit.SECONDS));
        for (long offset = 1; offset <= 5; offset++) {
            lane.add(TestRecords.at(offset));
        }
        CountDownLatch taskRan = new CountDownLatch(1);
        lane.addTask(taskRan::countDown); // a revocation's checkpoint still runs

        partition.close();
        finish.countDown();

        assertTrue(taskRan.await(WAIT_SECONDS, TimeUnit.SECONDS));
        assertEquals(List.of(0L), partition.completedSoFar(), "records 1-5 were dropped, left for the next owner");
        assertEquals(1, partition.attemptsStarted());
        assertEquals(0, partition.running());
        assertEquals(0, partition.unsettled(), "settled before the task behind it ran");
    }

    @Test
    void theUnorderedQueueIsDrainedByEveryLaneOfThePartitionAndAStuckRecordHoldsUpNothingElse()
            throws InterruptedException {
        CountDownLatch unstick = new CountDownLatch(1);
        ScriptedInvoker invoker = holdingRecordZeroUntil(unstick);
        WorkerPool workers = pool(3);
        ConcurrentLinkedQueue<ConsumerRecord<byte[], byte[]>> unordered = new ConcurrentLinkedQueue<>();
        List<Lane> lanes = List.of(new Lane(partition, invoker, workers, unordered),
                new Lane(partition, invoker, workers, unordered), new Lane(partition, invoker, workers, unordered));
        for (long offset = 0; offset < 200; offset++) {
            unordered.offer(TestRecords.at(offset));
        }
        lanes.forEach(Lane::schedule);

        List<Long> whileStuck = partition.awaitCompletions(199);
        assertEquals(offsets(1, 200), whileStuck.stream().sorted().collect(Collectors.toList()));
        unstick.countDown();
        assertEquals(0L, partition.awaitCompletions(1).get(199));
        assertTrue(unordered.isEmpty());
    }

    @Test
    void aRecordThatFailsEveryAttemptAndStopsTheEngineHoldsBackEverythingBehindIt() throws InterruptedException {
        AtomicInteger attemptsAtThree = new AtomicInteger();
        ScriptedInvoker invoker = new ScriptedInvoker(record -> {
            if (record.offset() == 3) {
                attemptsAtThree.incrementAndGet();
                throw new IllegalStateException("bad record");
            }
            return null;
        }, 3, false);
        Lane lane = new Lane(partition, invoker, pool(2), null);
        for (long offset = 0; offset < 10; offset++) {
            lane.add(TestRecords.at(offset));
        }
        CountDownLatch passed = new CountDownLatch(1);
        lane.addTask(passed::countDown);

        assertTrue(passed.await(WAIT_SECONDS, TimeUnit.SECONDS));
        assertEquals(List.of(0L, 1L, 2L), partition.completedSoFar(), "record 3 and all behind it stay pending");
        assertEquals(3, attemptsAtThree.get(), "retried up to maxAttempts");
        assertEquals(List.of(3L), invoker.givenUp);
        assertEquals(3, invoker.failures.size());
    }

    @Test
    void aRecordGivenUpAsDoneLetsTheLaneGoOn() throws InterruptedException {
        ScriptedInvoker invoker = new ScriptedInvoker(record -> {
            if (record.offset() == 3) {
                throw new IllegalStateException("bad record");
            }
            return null;
        }, 2, true);
        Lane lane = new Lane(partition, invoker, pool(2), null);
        for (long offset = 0; offset < 10; offset++) {
            lane.add(TestRecords.at(offset));
        }

        assertEquals(offsets(0, 10), partition.awaitCompletions(10), "skipped or dead-lettered: done, in order");
        assertEquals(List.of(3L), invoker.givenUp);
        assertEquals(2, invoker.failures.size());
    }

    @Test
    void anAsynchronousAttemptHoldsTheLaneUntilItCompletesAndItsFailureIsRetried() throws InterruptedException {
        List<CompletableFuture<Void>> firstAttempts = Collections.synchronizedList(new ArrayList<>());
        List<String> violations = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch suspended = new CountDownLatch(1);
        ScriptedInvoker invoker = new ScriptedInvoker(record -> {
            if (record.offset() == 0 && firstAttempts.isEmpty()) {
                CompletableFuture<Void> stage = new CompletableFuture<>();
                firstAttempts.add(stage);
                suspended.countDown();
                return stage;
            }
            if (record.offset() == 1 && partition.completedSoFar().isEmpty()) {
                violations.add("record 1 began before record 0 was done");
            }
            return CompletableFuture.completedFuture(null);
        }, 2, false);
        Lane lane = new Lane(partition, invoker, pool(2), null);
        lane.add(TestRecords.at(0));
        assertTrue(suspended.await(WAIT_SECONDS, TimeUnit.SECONDS));
        lane.add(TestRecords.at(1));

        firstAttempts.get(0).completeExceptionally(new IllegalStateException("remote call failed"));

        assertEquals(List.of(0L, 1L), partition.awaitCompletions(2));
        assertEquals(List.of(), violations);
        assertEquals(1, invoker.failures.size());
        assertEquals("remote call failed", invoker.failures.get(0).getMessage(), "unwrapped from the stage");
        assertEquals(0, partition.running());
    }

    /** Attempts that succeed at once, except record 0's, which waits for {@code latch}. */
    /** A lane on three workers whose records, and the tasks the test queues, write what ran into {@code order}. */
    private Lane orderRecording(List<String> order) {
        return new Lane(partition, ScriptedInvoker.of(record -> {
            order.add("record " + record.offset());
            return null;
        }), pool(3), null);
    }

    private static ScriptedInvoker holdingRecordZeroUntil(CountDownLatch latch) {
        return ScriptedInvoker.of(record -> {
            if (record.offset() == 0) {
                latch.await();
            }
            return null;
        });
    }

    private static List<Long> offsets(long from, long to) {
        return LongStream.range(from, to).boxed().collect(Collectors.toList());
    }
}
