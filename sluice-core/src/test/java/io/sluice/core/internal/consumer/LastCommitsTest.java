package io.sluice.core.internal.consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.core.FailureOutcome;
import io.sluice.core.Ordering;
import io.sluice.core.internal.budget.MemoryBudget;
import io.sluice.core.internal.failure.Backoff;
import io.sluice.core.internal.failure.FailurePolicy;
import io.sluice.core.internal.failure.RecordProcessor;
import io.sluice.core.internal.lane.LaneRouter;
import io.sluice.core.internal.lane.WorkerPool;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The drain's last commits, as a lane-committing commit point (a target's transaction) makes them: every partition's
 * last commit is queued before any is waited for, and one that fails stops the engine as it fails, not when the drain
 * gets to waiting for it. Before, a partition whose commit under way hung (its broker silent) was waited for first, up
 * to the drain timeout, before the next partition's last commit was even queued, and that one's failure, which lets
 * the engine abandon what the hung one waits on, was heard only after it (a mirror stopped during a target broker
 * outage took the drain timeout). The consumer is
 * Kafka's {@link MockConsumer}; the lanes run on a real worker pool.
 */
class LastCommitsTest {

    private static final TopicPartition HUNG = new TopicPartition("orders", 0);
    private static final TopicPartition FAILING = new TopicPartition("orders", 1);
    /** The drain timeout: long, so that a failure heard before it was heard as it came. */
    private static final Duration DRAIN = Duration.ofSeconds(20);

    private final MockConsumer<byte[], byte[]> consumer = new MockConsumer<>("earliest");
    private final WorkerPool pool = new WorkerPool("last-commits", 2, TimeUnit.MINUTES.toNanos(10));
    private final RecordingSink sink = new RecordingSink("last-commits-worker");
    private final List<Throwable> engineFailures = new CopyOnWriteArrayList<>();
    private final AssignedPartitions partitions = new AssignedPartitions();
    private final MemoryBudget budget = new MemoryBudget(64L * 1024 * 1024);
    private final DrainCommits commitPoint = new DrainCommits();
    private final LaneCommits laneCommits = new LaneCommits(sink, commitPoint,
            new CommitSettings(Duration.ofMillis(1), DRAIN), engineFailures::add, TestPartitions.TIMER);
    private final Dispatcher dispatcher = new Dispatcher(consumer, partitions, new LaneRouter(Ordering.PARTITION, null, 1),
            budget, laneCommits, new FetchPauses(consumer, partitions, null), RunEnd.unbounded());

    @AfterEach
    void stop() {
        commitPoint.hung.countDown();
        pool.shutdown(1000);
    }

    @Test
    void aLastCommitThatFailsStopsTheEngineAtOnceWhileAnotherPartitionsCommitHangs() throws Exception {
        PartitionState hung = assign(HUNG);
        PartitionState failing = assign(FAILING);
        fetch(HUNG, 0, 2); // the first record commits at once, the second waits for the interval
        assertEquals(List.of("open 0 -", "write 0", "checkpoint 1", "committed 1 files-1", "write 1"),
                sink.next(HUNG, 5));
        fetch(FAILING, 0, 1);
        assertEquals(List.of("open 0 -", "write 0", "checkpoint 1", "committed 1 files-1"), sink.next(FAILING, 4));

        commitPoint.hang = true;
        Thread.sleep(5); // past the interval
        laneCommits.maybeCommit(partitions.all()); // HUNG's commit of its second record hangs (its broker is silent)
        assertEquals("checkpoint 2", sink.next(HUNG));
        fetch(FAILING, 1, 2);
        while (!sink.next(FAILING).equals("write 1")) {
            // its interval commit found nothing new
        }
        commitPoint.fail = true;

        long drained = System.nanoTime();
        CompletableFuture<Void> drain = CompletableFuture.runAsync(
                () -> laneCommits.commitFinal(List.of(hung, failing)));
        long deadline = drained + TimeUnit.SECONDS.toNanos(10);
        while (engineFailures.isEmpty()) {
            assertTrue(System.nanoTime() < deadline, "the failed last commit stops the engine as it fails");
            Thread.sleep(5);
        }
        assertTrue(System.nanoTime() - drained < DRAIN.toNanos() / 2, "heard before the hung commit's timeout");
        assertTrue(engineFailures.get(0).getMessage().contains("the target refused the commit of orders-1"),
                engineFailures.get(0).getMessage());
        assertFalse(drain.isDone(), "the drain still waits for the hung partition");

        commitPoint.hung.countDown(); // as letting go of what it waits on does
        drain.get(10, TimeUnit.SECONDS);
        assertEquals(List.of(2L), commitPoint.lastOf(HUNG), "the hung commit, once answered, landed");
    }

    private PartitionState assign(TopicPartition tp) {
        PartitionState p = TestPartitions.state(tp, 0, pool, RecordProcessor.sink(sink,
                new FailurePolicy(1, new Backoff(Duration.ZERO, Duration.ZERO), FailureOutcome.STOP, null,
                        engineFailures::add)));
        List<TopicPartition> assigned = new ArrayList<>(consumer.assignment());
        assigned.add(tp);
        consumer.assign(assigned);
        consumer.seek(tp, 0);
        partitions.add(p);
        budget.partitionsAssigned(partitions.size());
        laneCommits.assigned(p, null);
        return p;
    }

    /** A poll that returns {@code [from, to)} of {@code tp}, handed to the dispatcher. */
    private void fetch(TopicPartition tp, long from, long to) {
        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (long offset = from; offset < to; offset++) {
            records.add(new ConsumerRecord<>(tp.topic(), tp.partition(), offset, null, new byte[8]));
        }
        dispatcher.dispatch(new ConsumerRecords<>(Map.of(tp, records), Map.of()));
    }

    /**
     * Commits in the lane; from {@link #hang} on, {@link #HUNG}'s commit waits until {@link #hung} opens (a silent
     * broker), and from {@link #fail} on {@link #FAILING}'s is refused.
     */
    private static final class DrainCommits extends TestLaneCommitPoint {
        final CountDownLatch hung = new CountDownLatch(1);
        final List<Map<TopicPartition, OffsetAndMetadata>> commits = new CopyOnWriteArrayList<>();
        volatile boolean hang;
        volatile boolean fail;

        /** The offsets committed for {@code tp} after its first commit. */
        List<Long> lastOf(TopicPartition tp) {
            return commits.stream().filter(c -> c.containsKey(tp)).map(c -> c.get(tp).offset()).skip(1).toList();
        }

        @Override
        public void commitNow(Map<TopicPartition, OffsetAndMetadata> offsets, Duration timeout) {
            if (fail && offsets.containsKey(FAILING)) {
                throw new IllegalStateException("the target refused the commit of " + FAILING);
            }
            if (hang && offsets.containsKey(HUNG)) {
                try {
                    assertTrue(hung.await(30, TimeUnit.SECONDS), "released by the test");
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            }
            commits.add(offsets);
        }
    }
}
