package io.sluice.core.internal.failure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.sluice.core.commit.CommitPoint;
import io.sluice.core.commit.InMemorySourceGroup;
import io.sluice.core.internal.consumer.TestLaneCommitPoint;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.Test;

/**
 * A final commit that rides out a broker outage tries again: once a try's outcome is unknown (a timeout: it may have
 * landed), a refusal of a later try is not certain either. Read as certain, the sink gave up the files of a commit
 * the group may hold (a review).
 */
class DeadLettersRetryTest {

    private static final TopicPartition P0 = new TopicPartition("orders", 0);

    @Test
    void aRefusalAfterATryOfUnknownOutcomeIsNotCertain() {
        PendingDeadLetters pending = new PendingDeadLetters("orders-dlq", "orders-archive", topic -> null);
        // a letter above the commit: the commit rides out the outage, and is a plain one
        pending.deadLetter(new ConsumerRecord<>("orders", 0, 50, new byte[0], new byte[0]), new RuntimeException("bad"),
                1);
        Deque<RuntimeException> tries = new ArrayDeque<>(List.of(new TimeoutException("no answer"),
                new CommitFailedException()));
        CommitPoint plain = new PlainCommits(tries);
        DeadLettersInCommit commits = new DeadLettersInCommit(plain, new InMemorySourceGroup("orders-archive"),
                pending, Map.of("bootstrap.servers", "127.0.0.1:1"), null, Duration.ofSeconds(30));

        RuntimeException e = assertThrows(RuntimeException.class,
                () -> commits.commitNow(Map.of(P0, new OffsetAndMetadata(5)), Duration.ofSeconds(1)));

        assertEquals(0, tries.size(), "tried twice");
        assertFalse(commits.refusedForCertain(e), "the first try may have landed: " + e);
    }

    /** Synchronous commits that fail with the given errors, one a try; a CommitFailedException is certain. */
    private static final class PlainCommits extends TestLaneCommitPoint {
        private final Deque<RuntimeException> tries;

        PlainCommits(Deque<RuntimeException> tries) {
            this.tries = tries;
        }

        @Override
        public void commitNow(Map<TopicPartition, OffsetAndMetadata> offsets, Duration timeout) {
            throw tries.remove();
        }

        @Override
        public boolean refusedForCertain(Exception error) {
            return error instanceof CommitFailedException;
        }
    }
}
