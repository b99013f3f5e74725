package io.sluice.core.internal.consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import org.apache.kafka.clients.consumer.RetriableCommitFailedException;
import org.junit.jupiter.api.Test;

/** A streak of failed commits is said once, then at most once a minute, and its end once. */
class CommitFailuresTest {

    private static final long S = 1_000_000_000L;

    @Test
    void aStreakIsSaidAtItsStartThenOnceAMinuteAndAgainAfterASuccess() {
        CommitFailures failures = new CommitFailures(Duration.ofMinutes(1));
        RetriableCommitFailedException error = new RetriableCommitFailedException("the coordinator is not available");

        failures.failed("[t-0]", error, 1 * S);
        assertEquals(0, failures.unsaid(), "the first failure is said");
        for (long t = 2; t <= 60; t++) {
            failures.failed("[t-0]", error, t * S);
        }
        assertEquals(59, failures.unsaid(), "one a second for a minute: counted, not said");
        failures.failed("[t-0]", error, 61 * S);
        assertEquals(0, failures.unsaid(), "a minute after the last line: said, with the count");

        failures.succeeded(62 * S);
        failures.failed("[t-0]", error, 63 * S);
        assertEquals(0, failures.unsaid(), "a new streak after a success is said at once");
    }
}
