package io.sluice.core.internal.consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * An assignment's first commit in a lane-committing commit point (a target's transaction) follows its first record,
 * not a whole fetch: the dispatcher hands that record to the lane, the commit is queued behind it, and the rest of the
 * fetch follows. Later fetches are handed out whole, their commits on the interval. The consumer is Kafka's
 * {@link MockConsumer}; the lanes run on a real worker pool; the interval is an hour, so every commit seen here is
 * the assignment's first.
 */
class FirstCommitTest {

    private static final TopicPartition P0 = new TopicPartition("orders", 0);

    private final MockConsumer<byte[], byte[]> consumer = new MockConsumer<>("earliest");
    private final WorkerPool pool = new WorkerPool("first-commit", 2, TimeUnit.MINUTES.toNanos(10));
    private final RecordingSink sink = new RecordingSink("first-commit-worker");
    private final List<Throwable> engineFailures = new CopyOnWriteArrayList<>();
    private final List<Map<TopicPartition, OffsetAndMetadata>> commits = new CopyOnWriteArrayList<>();
    private final AssignedPartitions partitions = new AssignedPartitions();
    private final MemoryBudget budget = new MemoryBudget(64L * 1024 * 1024);
    private final LaneCommits laneCommits = new LaneCommits(sink, new InLaneCommits(),
            new CommitSettings(Duration.ofHours(1), Duration.ofSeconds(10)), engineFailures::add, TestPartitions.TIMER);
    private final Dispatcher dispatcher = new Dispatcher(consumer, partitions, new LaneRouter(Ordering.PARTITION, null, 1),
            budget, laneCommits, new FetchPauses(consumer, partitions, null), RunEnd.unbounded());

    @AfterEach
    void stop() {
        pool.shutdown(1000);
        assertEquals(List.of(), sink.callsOutsideLanes, "every sink call runs in the partition's lane");
        assertEquals(List.of(), engineFailures);
    }

    @Test
    void theFirstCommitRunsRightBehindTheFirstRecordAndTheFetchFollowsIt() throws Exception {
        PartitionState p = assign(0);
        fetch(0, 4);

        assertEquals(4, p.ledger.handedOut(), "the whole fetch is handed out");
        assertEquals(List.of("open 0 -", "write 0", "checkpoint 1", "committed 1 files-1", "write 1", "write 2",
                "write 3"), sink.next(P0, 7), "the commit runs behind the first record, the rest after it");
        assertEquals(1, commits.size(), "one commit: " + commits);
        assertEquals(1, commits.get(0).get(P0).offset(), "it covers the first record");
    }

    @Test
    void laterFetchesWaitForTheInterval() throws Exception {
        assign(0);
        fetch(0, 2);
        sink.next(P0, 5); // open, write 0, the first commit, write 1
        laneCommits.maybeCommit(partitions.all()); // hears that the first commit was taken
        fetch(2, 4);

        laneCommits.maybeCommit(partitions.all());
        fetch(4, 5);

        assertEquals(List.of("write 2", "write 3", "write 4"), sink.next(P0, 3),
                "no commit queued between the fetches: the interval has not passed");
        assertEquals(1, commits.size(), "only the first: " + commits);
    }

    @Test
    void aPartitionAssignedAgainCommitsBehindItsFirstRecordAgain() throws Exception {
        PartitionState first = assign(0);
        fetch(0, 3);
        laneCommits.commitFinal(List.of(first));
        partitions.remove(first);
        while (!sink.next(P0).equals("close revoked")) {
            // the first assignment's events, up to its close
        }

        assign(3);
        fetch(3, 5);
        assertEquals(List.of("open 3 -", "write 3", "checkpoint 4", "committed 4 files-4", "write 4"),
                sink.next(P0, 5));
    }

    /** A checkpoint that fails (a mirror's copies the target did not take) is a commit that failed: counted. */
    @Test
    void aFailedCheckpointCountsAsAFailedCommit() throws Exception {
        sink.failCheckpoints(new IllegalStateException("the target did not take a copy"));
        assign(0);
        fetch(0, 2);
        assertEquals(List.of("open 0 -", "write 0", "checkpoint failed"), sink.next(P0, 3));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (engineFailures.isEmpty()) { // the lane's failure reaches the engine once the loop looks at it
            laneCommits.maybeCommit(partitions.all());
            assertTrue(System.nanoTime() < deadline, "the failed commit did not stop the engine");
            Thread.sleep(5);
        }
        assertEquals(1, laneCommits.counts().failures());
        assertEquals(0, laneCommits.counts().commits());
        engineFailures.clear(); // expected here
    }

    /**
     * Records the sink rejects and the policy gives up, after the last it took: the lane's commit reaches past them, as
     * the consumer thread's does. It stopped at the last record taken, so they were never committed, and (dead
     * letters) went out again after every restart (a review).
     */
    @Test
    void theLastCommitReachesPastTheRecordsGivenUpAfterTheLastTaken() throws Exception {
        sink.rejectFrom(1);
        PartitionState p = assign(0, FailureOutcome.SKIP);
        fetch(0, 3);
        assertEquals(List.of("open 0 -", "write 0", "checkpoint 1", "committed 1 files-1", "write 1", "write 2"),
                sink.next(P0, 6));
        laneCommits.commitFinal(List.of(p));
        assertEquals(3, commits.get(commits.size() - 1).get(P0).offset(), "past 1 and 2, given up: " + commits);
    }

    private PartitionState assign(long start) {
        return assign(start, FailureOutcome.STOP);
    }

    private PartitionState assign(long start, FailureOutcome outcome) {
        PartitionState p = TestPartitions.state(P0, start, pool, RecordProcessor.sink(sink,
                new FailurePolicy(1, new Backoff(Duration.ZERO, Duration.ZERO), outcome, null,
                        engineFailures::add)));
        consumer.assign(List.of(P0));
        consumer.seek(P0, start);
        partitions.add(p);
        budget.partitionsAssigned(partitions.size());
        laneCommits.assigned(p, null);
        return p;
    }

    /** A poll that returns {@code [from, to)} of P0, handed to the dispatcher. */
    private void fetch(long from, long to) {
        List<ConsumerRecord<byte[], byte[]>> records = new java.util.ArrayList<>();
        for (long offset = from; offset < to; offset++) {
            records.add(new ConsumerRecord<>(P0.topic(), P0.partition(), offset, null, new byte[8]));
        }
        dispatcher.dispatch(new ConsumerRecords<>(Map.of(P0, records), Map.of()));
    }

    /** A commit point that commits in the lane, and always succeeds. */
    private final class InLaneCommits extends TestLaneCommitPoint {
        @Override
        public void commitNow(Map<TopicPartition, OffsetAndMetadata> offsets, Duration timeout) {
            commits.add(offsets);
        }
    }
}
