package io.sluice.core.internal.consumer;

import static io.sluice.core.internal.consumer.TestPartitions.progress;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.core.commit.InMemorySourceGroup;
import io.sluice.core.commit.RefusedAfterUnknownTry;
import io.sluice.core.commit.SourceGroupCommit;
import io.sluice.core.internal.ledger.CompletionMap;
import io.sluice.core.wire.CommitMetadata;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.Test;

/**
 * Handlers' commits of the ledger: what is sent on the interval, after a failure, and on revoke and close, through
 * the source group's commit point (its outcomes answered by the test, which plays the consumer thread).
 */
class LedgerCommitsTest {

    private static final TopicPartition P0 = new TopicPartition("orders", 0);
    private static final TopicPartition P1 = new TopicPartition("orders", 1);

    private final InMemorySourceGroup group = new InMemorySourceGroup("handlers");
    private final ConcurrentLinkedQueue<Completion> completions = new ConcurrentLinkedQueue<>();
    private final PartitionState p0 = TestPartitions.state(P0, 0, completions);
    private final PartitionState p1 = TestPartitions.state(P1, 0, completions);
    private final List<PartitionState> both = List.of(p0, p1);

    private LedgerCommits commitsEvery(Duration interval) {
        LedgerCommits commits = new LedgerCommits(new SourceGroupCommit(group),
                new CommitSettings(interval, Duration.ofSeconds(5)), TestPartitions.TIMER);
        both.forEach(p -> commits.assigned(p, null));
        return commits;
    }

    @Test
    void eachIntervalCommitsTheWatermarkAndCompletionMapOfThePartitionsThatChanged() {
        LedgerCommits commits = commitsEvery(Duration.ZERO);
        progress(p0, 0, 5, 0, 1, 3);
        progress(p1, 0, 2, 0);

        commits.maybeCommit(both);
        group.answer(null);
        progress(p0, 5, 5, 2);
        commits.maybeCommit(both);
        group.answer(null);
        commits.maybeCommit(both);

        List<Map<TopicPartition, OffsetAndMetadata>> sent = group.sent();
        assertEquals(2, sent.size(), "the third interval had nothing new: " + sent);
        assertEquals(Map.of(P0, 2L, P1, 1L), offsetsOf(sent.get(0)));
        String metadata = sent.get(0).get(P0).metadata();
        assertEquals(Optional.of(p0.topicId), CommitMetadata.topicId(metadata));
        CompletionMap done = CompletionMap.fromCommit(2, metadata);
        assertTrue(done.isComplete(3), "done beyond the watermark: skipped after a restart");
        assertFalse(done.isComplete(2));
        assertFalse(done.isComplete(4));
        assertEquals(Map.of(P0, 4L), offsetsOf(sent.get(1)), "only P0 moved");
        assertEquals(2, commits.counts().commits());
    }

    @Test
    void nothingIsCommittedBeforeTheIntervalHasPassed() {
        LedgerCommits commits = commitsEvery(Duration.ofHours(1));
        progress(p0, 0, 3, 0, 1, 2);

        commits.maybeCommit(both);

        assertEquals(List.of(), group.sent());
    }

    @Test
    void aFailedCommitIsNotSentAgainTheNextIntervalCommitsTheNewerState() {
        LedgerCommits commits = commitsEvery(Duration.ZERO);
        progress(p0, 0, 4, 0);
        commits.maybeCommit(both);
        group.answer(null); // both partitions' first commits
        progress(p0, 4, 4, 1);
        commits.maybeCommit(both);

        group.answer(new TimeoutException("coordinator did not answer"));
        progress(p0, 4, 4, 2);
        commits.maybeCommit(both);
        group.answer(null);

        List<Map<TopicPartition, OffsetAndMetadata>> sent = group.sent();
        assertEquals(3, sent.size());
        assertEquals(Map.of(P0, 2L), offsetsOf(sent.get(1)));
        assertEquals(Map.of(P0, 3L), offsetsOf(sent.get(2)), "the newer state, not the failed commit again");
        assertEquals(3, group.committedNow().get(P0).offset());
        assertEquals(1, commits.counts().failures());
    }

    @Test
    void aPartitionWhoseCommitFailedIsCommittedAgainThoughItDidNotMove() {
        LedgerCommits commits = commitsEvery(Duration.ZERO);
        progress(p0, 0, 2, 0);
        commits.maybeCommit(both);

        group.answer(new CommitFailedException());
        commits.maybeCommit(both);

        List<Map<TopicPartition, OffsetAndMetadata>> sent = group.sent();
        assertEquals(2, sent.size(), "the state before an idle stretch must not wait for the next record");
        assertEquals(sent.get(0), sent.get(1));
        group.answer(null);
        assertEquals(1, group.committedNow().get(P0).offset());
    }

    @Test
    void aNewerCommitThatFailsIsSentAgainThoughAnOlderOneSucceededAfterItWasSent() {
        LedgerCommits commits = commitsEvery(Duration.ZERO);
        commits.maybeCommit(both);
        group.answer(null); // both partitions' first commits, at 0
        progress(p0, 0, 4, 0);
        commits.maybeCommit(both); // in flight: P0 at 1
        progress(p0, 4, 4, 1, 2);
        commits.maybeCommit(both); // in flight behind it: P0 at 3

        group.answer(null);
        group.answer(new CommitFailedException());
        commits.maybeCommit(both);

        List<Map<TopicPartition, OffsetAndMetadata>> sent = group.sent();
        assertEquals(Map.of(P0, 1L), offsetsOf(sent.get(1)));
        assertEquals(Map.of(P0, 3L), offsetsOf(sent.get(2)));
        assertEquals(4, sent.size(), "P0's state at 3 is not committed yet: " + sent);
        assertEquals(Map.of(P0, 3L), offsetsOf(sent.get(3)));
    }

    @Test
    void onRevokeAndCloseTheChangedPartitionsAreCommittedSynchronouslyOnce() {
        LedgerCommits commits = commitsEvery(Duration.ofHours(1));
        progress(p0, 0, 3, 0, 1);
        progress(p1, 0, 1, 0);
        commits.maybeCommit(both);

        commits.commitFinal(both);
        assertEquals(0, group.inFlight());
        assertEquals(Map.of(P0, 2L, P1, 1L), offsetsOf(group.committedNow()));

        progress(p1, 1, 2, 1);
        commits.commitFinal(both);
        assertEquals(Map.of(P1, 2L), offsetsOf(group.sent().get(1)), "P0 was committed already");
        assertEquals(2, commits.counts().commits());
    }

    @Test
    void aRefusedCommitOnRevokeIsThrownForTheCallerToReport() {
        LedgerCommits commits = commitsEvery(Duration.ofHours(1));
        progress(p0, 0, 1, 0);
        group.failSyncCommitsWith(new CommitFailedException());

        // refused, though an earlier try within commitSync may have landed: never reported as certain
        RefusedAfterUnknownTry refused = assertThrows(RefusedAfterUnknownTry.class, () -> commits.commitFinal(both));
        assertInstanceOf(CommitFailedException.class, refused.getCause());
        assertEquals(0, commits.counts().commits());
        assertEquals(Map.of(), group.committedNow());
    }

    private static Map<TopicPartition, Long> offsetsOf(Map<TopicPartition, OffsetAndMetadata> commit) {
        Map<TopicPartition, Long> offsets = new java.util.HashMap<>();
        commit.forEach((tp, oam) -> offsets.put(tp, oam.offset()));
        return offsets;
    }
}
