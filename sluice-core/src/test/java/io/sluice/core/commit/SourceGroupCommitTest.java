package io.sluice.core.commit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.core.internal.consumer.SourceGroupView;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.RetriableCommitFailedException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.CoordinatorNotAvailableException;
import org.apache.kafka.common.errors.DisconnectException;
import org.apache.kafka.common.errors.FencedInstanceIdException;
import org.apache.kafka.common.errors.IllegalGenerationException;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.UnknownMemberIdException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The source group's offset commit: what a claim returns, and which commit failures are certain refusals. */
class SourceGroupCommitTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    private static final TopicPartition P0 = new TopicPartition("orders", 0);
    private static final TopicPartition P1 = new TopicPartition("orders", 1);

    @Test
    void aClaimDropsThePartitionsTheGroupNeverCommitted() {
        InMemorySourceGroup group = new InMemorySourceGroup("archive");
        group.alreadyCommitted(P0, new OffsetAndMetadata(42, "sluice1:x:"));

        Map<TopicPartition, OffsetAndMetadata> claimed = new SourceGroupCommit(group).claim(Set.of(P0, P1), TIMEOUT);

        assertEquals(Map.of(P0, new OffsetAndMetadata(42, "sluice1:x:")), claimed,
                "P1 has no commit: absent, not null, so the engine places it by the start position");
    }

    @Test
    void commitsGoThroughTheConsumerAndAClaimReadsThemBack() {
        MockConsumer<byte[], byte[]> consumer = new MockConsumer<>("earliest");
        consumer.assign(List.of(P0, P1));
        // no admin client: this test reads no progress
        CommitPoint commits = new SourceGroupCommit(new SourceGroupView(consumer, null, "archive"));
        List<Exception> outcomes = new ArrayList<>();

        commits.commit(Map.of(P0, new OffsetAndMetadata(7, "a")), (offsets, error) -> outcomes.add(error));
        commits.commitNow(Map.of(P1, new OffsetAndMetadata(9, "b")), TIMEOUT);

        assertEquals(1, outcomes.size());
        assertEquals(null, outcomes.get(0));
        assertEquals(Map.of(P0, new OffsetAndMetadata(7, "a"), P1, new OffsetAndMetadata(9, "b")),
                commits.claim(Set.of(P0, P1), TIMEOUT));
        assertEquals("the offset commit of group 'archive'", commits.describe());
    }

    static Stream<Arguments> commitFailures() {
        return Stream.of(
                Arguments.of(new CommitFailedException(), true),
                Arguments.of(new RebalanceInProgressException(), true),
                Arguments.of(new FencedInstanceIdException("fenced"), true),
                Arguments.of(new UnknownMemberIdException("gone"), true),
                Arguments.of(new IllegalGenerationException("old generation"), true),
                Arguments.of(new TimeoutException("no answer"), false),
                Arguments.of(new DisconnectException("connection lost"), false),
                Arguments.of(new CoordinatorNotAvailableException("moving"), false),
                Arguments.of(new RetriableCommitFailedException("retriable"), false));
    }

    /** A refusal is certain only when the coordinator said this member may not commit; otherwise it may have landed. */
    @ParameterizedTest
    @MethodSource("commitFailures")
    void onlyTheCoordinatorsRefusalsAreCertain(Exception error, boolean certain) {
        assertEquals(certain, new SourceGroupCommit(new InMemorySourceGroup("g")).refusedForCertain(error),
                error.getClass().getSimpleName());
    }

    @Test
    void settlingTheCommitsInFlightDeliversTheirOutcomesInOrderAndSendsNothing() {
        InMemorySourceGroup group = new InMemorySourceGroup("archive");
        CommitPoint commits = new SourceGroupCommit(group);
        List<Long> heard = new ArrayList<>();
        commits.commit(Map.of(P0, new OffsetAndMetadata(1)), (offsets, error) -> heard.add(offsets.get(P0).offset()));
        commits.commit(Map.of(P0, new OffsetAndMetadata(2)), (offsets, error) -> heard.add(offsets.get(P0).offset()));

        commits.settleInFlight(TIMEOUT);

        assertEquals(List.of(1L, 2L), heard);
        assertEquals(2, group.sent().size(), "the settling commit is empty");
        assertEquals(new OffsetAndMetadata(2), group.committedNow().get(P0));
    }

    /**
     * Kafka's {@code commitSync} sends a commit again after a lost answer: the coordinator's refusal of the later try
     * says nothing of the first, which may have landed. Read as certain, an archive gave up the files of a commit the
     * group may hold (a review), and the next owner's recovery found them gone.
     */
    @Test
    void aSynchronousCommitsRefusalIsNeverCertain() {
        InMemorySourceGroup group = new InMemorySourceGroup("g");
        CommitPoint commits = new SourceGroupCommit(group);
        group.failSyncCommitsWith(new CommitFailedException());
        RuntimeException refused = assertThrows(RuntimeException.class,
                () -> commits.commitNow(Map.of(P0, new OffsetAndMetadata(3)), TIMEOUT));
        assertFalse(commits.refusedForCertain(refused), refused.toString());
        assertTrue(refused.getMessage().startsWith("the group rebalanced while the commit was under way"),
                refused.getMessage());
        group.failSyncCommitsWith(new TimeoutException("no answer"));
        assertThrows(TimeoutException.class, () -> commits.commitNow(Map.of(P0, new OffsetAndMetadata(3)), TIMEOUT));
    }
}
