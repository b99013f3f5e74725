package io.sluice.core.internal.consumer;

import static io.sluice.core.internal.consumer.TestPartitions.dispatch;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.core.FailureOutcome;
import io.sluice.core.commit.InMemorySourceGroup;
import io.sluice.core.commit.SourceGroupCommit;
import io.sluice.core.internal.failure.Backoff;
import io.sluice.core.internal.failure.FailurePolicy;
import io.sluice.core.internal.failure.RecordProcessor;
import io.sluice.core.internal.lane.WorkerPool;
import io.sluice.core.internal.ledger.CompletionMap;
import io.sluice.core.wire.CommitMetadata;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A sink's commits: every sink call in the partition's lane, in order with the writes; the checkpoint's data in the
 * commit; what the sink hears of each commit's fate, on the interval, on revoke and on loss. The lanes run on a real
 * worker pool; the source group's commits are answered by the test, which plays the consumer thread. The interval is
 * zero, so every {@code maybeCommit} both sends the checkpoints that are ready and asks for the next ones.
 */
class SinkCommitsTest {

    private static final TopicPartition P0 = new TopicPartition("orders", 0);
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final WorkerPool pool = new WorkerPool("sink-lanes", 2, TimeUnit.MINUTES.toNanos(10));
    private final RecordingSink sink = new RecordingSink("sink-lanes-worker");
    private final InMemorySourceGroup group = new InMemorySourceGroup("archive");
    private final List<Throwable> engineFailures = new CopyOnWriteArrayList<>();
    private final Map<TopicPartition, PartitionState> assigned = new HashMap<>();
    private final SinkCommits commits = new SinkCommits(sink, new SourceGroupCommit(group),
            new CommitSettings(Duration.ZERO, TIMEOUT), engineFailures::add, assigned::get, TestPartitions.TIMER);
    private final RecordProcessor writes = RecordProcessor.sink(sink,
            new FailurePolicy(1, new Backoff(Duration.ZERO, Duration.ZERO), FailureOutcome.STOP, null,
                    engineFailures::add));

    @AfterEach
    void stop() {
        pool.shutdown(1000);
        assertEquals(List.of(), sink.callsOutsideLanes, "every sink call runs in the partition's lane");
        assertEquals(List.of(), engineFailures);
    }

    private PartitionState assign(long start, OffsetAndMetadata committed) {
        PartitionState p = TestPartitions.state(P0, start, pool, writes);
        assigned.put(P0, p);
        commits.assigned(p, committed);
        return p;
    }

    /** Asks for a checkpoint and waits until the lane has run it; the next {@code maybeCommit} sends it. */
    private void checkpointReady(PartitionState p) throws Exception {
        commits.maybeCommit(List.of(p));
        p.pendingCheckpoint.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
    }

    @Test
    void theCheckpointRunsInTheLaneBehindEarlierWritesAndItsCommitCarriesTheSinksData() throws Exception {
        PartitionState p = assign(0, null);
        assertEquals("open 0 -", sink.next(P0));
        CountDownLatch gate = new CountDownLatch(1);
        sink.holdWritesUntil(gate);
        dispatch(p, 0, 3);
        assertEquals("write 0", sink.next(P0)); // the lane is inside write 0; writes 1 and 2 wait behind it

        commits.maybeCommit(List.of(p));
        gate.countDown();

        assertEquals("write 1", sink.next(P0));
        assertEquals("write 2", sink.next(P0));
        assertEquals("checkpoint 3", sink.next(P0), "after every record handed out before it was asked for");
        p.pendingCheckpoint.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        commits.maybeCommit(List.of(p));
        OffsetAndMetadata sent = group.sent().get(0).get(P0);
        assertEquals(3, sent.offset());
        assertEquals(Optional.of("files-3"), CommitMetadata.sinkData(sent.metadata()));
        assertEquals(Optional.of(p.topicId), CommitMetadata.topicId(sent.metadata()));
        assertEquals("checkpoint 3", sink.next(P0), "the next interval's");

        group.answer(null);

        assertEquals("committed 3 files-3", sink.next(P0));
        assertEquals(1, commits.counts().commits());
    }

    @Test
    void aCheckpointOfEveryRecordHandedOutCommitsPastTheMarkersTheConsumerSteppedOverAndOnlyOnce() throws Exception {
        PartitionState p = assign(0, null);
        dispatch(p, 0, 3);
        p.ledger.positionAt(5); // an aborted record at 3 and its abort marker at 4: the log ends there

        checkpointReady(p);
        commits.maybeCommit(List.of(p)); // sends it; asks for the next, which nothing new changes
        OffsetAndMetadata sent = group.sent().get(0).get(P0);
        assertEquals(5, sent.offset(), "the records end at 3, the log at 5: nothing left to read");
        assertEquals(CompletionMap.empty(5).encode(), CompletionMap.fromCommit(5, sent.metadata()).encode());
        assertEquals(Optional.of("files-3"), CommitMetadata.sinkData(sent.metadata()));
        group.answer(null);
        assertEquals(List.of("open 0 -", "write 0", "write 1", "write 2", "checkpoint 3", "checkpoint 3",
                "committed 3 files-3"), sink.next(P0, 7), "the sink hears of its own checkpoint");

        p.pendingCheckpoint.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        commits.maybeCommit(List.of(p));
        assertEquals(1, group.sent().size(), "the same checkpoint at the same offset is not committed again");

        p.close();
        commits.commitFinal(List.of(p));
        assertEquals(5, group.committedNow().get(P0).offset(), "nor does the last commit go back");
    }

    static Stream<Arguments> commitFailures() {
        return Stream.of(
                Arguments.of(new CommitFailedException(), "not committed 2 certainly"),
                Arguments.of(new RebalanceInProgressException(), "not committed 2 certainly"),
                Arguments.of(new TimeoutException("no answer"), "not committed 2 perhaps"));
    }

    @ParameterizedTest
    @MethodSource("commitFailures")
    void aFailedCommitIsReportedInTheLaneAsRefusedOrUnknownAndItsCheckpointIsCommittedAgain(Exception error,
            String heard) throws Exception {
        PartitionState p = assign(0, null);
        dispatch(p, 0, 2);
        checkpointReady(p);
        checkpointReady(p); // sends the first, runs the second

        group.answer(error);

        assertEquals(List.of("open 0 -", "write 0", "write 1", "checkpoint 2", "checkpoint 2"),
                sink.next(P0, 5));
        assertEquals(heard, sink.next(P0));
        assertEquals(1, commits.counts().failures());
        commits.maybeCommit(List.of(p));
        assertEquals(2, group.sent().size(), "the output stays for the next checkpoint, which names it again");
        assertEquals(2, group.sent().get(1).get(P0).offset());
    }

    private void assertTheCommitFailsLoudly(PartitionState p, String why) {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> commits.maybeCommit(List.of(p)));
        assertTrue(e.getMessage().contains(why), e.getMessage());
        assertEquals(List.of(), group.sent());
    }

    @Test
    void aCheckpointBeyondTheRecordsHandedOutFailsLoudly() throws Exception {
        PartitionState p = assign(0, null);
        sink.checkpointAt(10);
        dispatch(p, 0, 3);
        checkpointReady(p);

        assertTheCommitFailsLoudly(p, "beyond the records handed out (3)");
    }

    @Test
    void aCheckpointBeforeTheLastCommitFailsLoudly() throws Exception {
        String metadata = CommitMetadata.encode(Uuid.randomUuid(), CompletionMap.empty(5).encode(), "files-5");
        PartitionState p = assign(5, new OffsetAndMetadata(5, metadata));
        assertEquals("open 5 files-5", sink.next(P0), "the sink recovers from the last commit's data");
        sink.checkpointAt(4);
        dispatch(p, 5, 7);
        checkpointReady(p);

        assertTheCommitFailsLoudly(p, "below its last commit 5");
    }

    @Test
    void onLossTheSinkHearsOfTheRefusedCommitInFlightAndOfTheUnsentCheckpointBeforeItCloses() throws Exception {
        PartitionState p = assign(0, null);
        dispatch(p, 0, 2);
        checkpointReady(p);
        dispatch(p, 2, 3);
        commits.maybeCommit(List.of(p)); // sends checkpoint 2; asks for checkpoint 3, which is never sent
        assertEquals(List.of("open 0 -", "write 0", "write 1", "checkpoint 2", "write 2", "checkpoint 3"),
                sink.next(P0, 6),
                "record 2 written before the loss, which would drop it");
        group.answerInFlightAtNextSyncWith(new CommitFailedException()); // the zombie's commit is fenced

        p.close();
        commits.lost(List.of(p));

        assertEquals(List.of("not committed 2 certainly", "not committed 3 certainly", "close lost"),
                sink.pending(P0));
        assertEquals(1, group.sent().size(), "nothing is committed for a lost partition");
    }

    /** Checkpoint 2 sent to be committed, and an unsent twin of it (nothing was written in between) ready. */
    private PartitionState checkpointTwinOfOneInFlight() throws Exception {
        PartitionState p = assign(0, null);
        dispatch(p, 0, 2);
        checkpointReady(p);
        commits.maybeCommit(List.of(p)); // sends checkpoint 2; asks for the next, which nothing new changes
        p.pendingCheckpoint.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        return p;
    }

    @Test
    void onLossACommitThatLandedIsNeverReportedAsCertainlyNotCommittedThroughAnUnsentTwinOfIt() throws Exception {
        PartitionState p = checkpointTwinOfOneInFlight();
        assertEquals(List.of("open 0 -", "write 0", "write 1", "checkpoint 2", "checkpoint 2"), sink.next(P0, 5));
        group.answerInFlightAtNextSyncWith(null); // the commit in flight landed just before the member was fenced

        p.close();
        commits.lost(List.of(p));

        assertEquals("files-2", CommitMetadata.sinkData(group.committedNow().get(P0).metadata()).orElseThrow(),
                "Kafka committed the checkpoint that names files-2");
        assertEquals(List.of("close lost"), sink.pending(P0),
                "the unsent checkpoint is the committed one: saying it was certainly not committed would let the sink "
                        + "give up what the commit names");
    }

    @Test
    void onLossAnUnsentTwinOfACommitWhoseOutcomeIsUnknownIsNotReportedAsCertainlyNotCommitted() throws Exception {
        PartitionState p = checkpointTwinOfOneInFlight();
        group.answer(new TimeoutException("no answer from the coordinator")); // it may yet be the committed one
        assertEquals(List.of("open 0 -", "write 0", "write 1", "checkpoint 2", "checkpoint 2",
                "not committed 2 perhaps"), sink.next(P0, 6));

        p.close();
        commits.lost(List.of(p));

        assertEquals(List.of("close lost"), sink.pending(P0),
                "the unsent twin names what an unknown commit may have made true: the sink must keep it");
    }

    /**
     * A loss whose wait for the commits in flight times out lets the partition go with a commit unanswered; when the
     * partition comes back, that late answer belongs to the earlier assignment. Routed by the partition's name, it
     * told the new assignment's sink that a checkpoint it never made was committed, moved its last commit back and
     * emptied the checkpoints it had in flight.
     */
    @Test
    void aLateAnswerToAnEarlierAssignmentsCommitReachesNothingOfTheNewAssignment() throws Exception {
        PartitionState before = assign(0, null);
        dispatch(before, 0, 2);
        checkpointReady(before);
        commits.maybeCommit(List.of(before)); // sends checkpoint 2; its answer is late
        before.close();
        assigned.remove(P0); // let go without hearing the answer
        assertEquals(List.of("open 0 -", "write 0", "write 1", "checkpoint 2", "checkpoint 2"), sink.next(P0, 5));

        String metadata = CommitMetadata.encode(Uuid.randomUuid(), CompletionMap.empty(4).encode(), "files-4");
        OffsetAndMetadata recovered = new OffsetAndMetadata(4, metadata);
        PartitionState after = assign(4, recovered); // another member committed up to 4 meanwhile
        assertEquals("open 4 files-4", sink.next(P0));
        dispatch(after, 4, 6);
        checkpointReady(after);
        commits.maybeCommit(List.of(after)); // sends checkpoint 6 of the new assignment
        assertEquals(List.of("write 4", "write 5", "checkpoint 6", "checkpoint 6"), sink.next(P0, 4));

        group.answer(null); // the earlier assignment's commit of checkpoint 2

        assertEquals(recovered, after.lastCommitted, "the new assignment's last commit stays where it recovered");
        assertEquals(1, after.possiblyCommitted.size(), "its own commit in flight stays possibly committed");
        group.answer(null);
        assertEquals("committed 6 files-6", sink.next(P0),
                "the sink hears of its own checkpoint, and of none the earlier assignment made");
        assertEquals(6, after.lastCommitted.offset());
    }

    @Test
    void onRevokeTheLastCheckpointIsCommittedSynchronouslyThenPublishedBeforeTheSinkCloses() throws Exception {
        PartitionState p = assign(0, null);
        dispatch(p, 0, 2);
        assertEquals(List.of("open 0 -", "write 0", "write 1"), sink.next(P0, 3));

        p.close();
        commits.commitFinal(List.of(p));

        assertEquals(List.of("checkpoint 2 last", "committed 2 files-2", "close revoked"), sink.pending(P0));
        OffsetAndMetadata committed = group.committedNow().get(P0);
        assertEquals(2, committed.offset());
        assertEquals(Optional.of("files-2"), CommitMetadata.sinkData(committed.metadata()));
    }

    /**
     * A synchronous commit refused on revoke is not certainly refused: Kafka's {@code commitSync} may have sent it
     * before, its answer lost, and that try may have landed. Reported as certain, the sink gave up files the group's
     * commit may name (a review); reported as perhaps, it leaves them to the next owner's recovery.
     */
    @Test
    void aRefusedCommitOnRevokeIsReportedAsPerhapsCommittedBeforeTheSinkCloses() throws Exception {
        PartitionState p = assign(0, null);
        dispatch(p, 0, 2);
        assertEquals(List.of("open 0 -", "write 0", "write 1"), sink.next(P0, 3));
        group.failSyncCommitsWith(new CommitFailedException());

        p.close();
        commits.commitFinal(List.of(p));

        assertEquals(List.of("checkpoint 2 last", "not committed 2 perhaps", "close revoked"), sink.pending(P0));
        assertEquals(Map.of(), group.committedNow());
        assertEquals(1, commits.counts().failures());
    }
}
