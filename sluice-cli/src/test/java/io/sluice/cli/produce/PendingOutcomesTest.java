package io.sluice.cli.produce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.producer.DeliverySnapshot;
import io.sluice.producer.DeliveryTally;
import io.sluice.producer.input.Origin;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.Test;

/** A transaction's outcomes, held until it ends; the producer's callbacks called as its I/O thread would. */
class PendingOutcomesTest {

    private static final RecordMetadata ACK = new RecordMetadata(new TopicPartition("t", 0), 0, 0, 0, 3, 5);

    @Test
    void aRecordIsAcknowledgedOnlyWhenItsTransactionCommitsWithItsLatencyToTheCommit() throws Exception {
        DeliveryTally tally = new DeliveryTally();
        PendingOutcomes pending = new PendingOutcomes(tally);
        List<Callback> callbacks = send(pending, 1, 5_000, 10);
        callbacks.forEach(c -> c.onCompletion(ACK, null));
        assertEquals(new Counts(5_000, 0, 0, 50_000, 0), Counts.of(tally.snapshot()), "the broker answered: pending");
        Thread.sleep(20);
        pending.committed();
        DeliverySnapshot s = tally.snapshot();
        assertEquals(new Counts(5_000, 5_000, 0, 50_000, 50_000), Counts.of(s));
        assertTrue(s.ackP50().compareTo(Duration.ofMillis(20)) >= 0, "measured to the commit, not the answer: " + s);
    }

    @Test
    void aRecordThatFailedOnItsOwnIsFailedAtTheCommitAndTheOthersAcknowledged() {
        DeliveryTally tally = new DeliveryTally();
        PendingOutcomes pending = new PendingOutcomes(tally);
        List<Callback> callbacks = send(pending, 1, 4, 100);
        callbacks.get(2).onCompletion(null, new RecordTooLargeException("too large")); // refused before it joined
        callbacks.get(2).onCompletion(null, new RecordTooLargeException("counted once"));
        pending.committed();
        DeliverySnapshot s = tally.snapshot();
        assertEquals(new Counts(4, 3, 1, 400, 300), Counts.of(s));
        assertEquals(List.of("in.jsonl:3: record too large: too large"),
                s.firstFailures().stream().map(Object::toString).toList());

        send(pending, 5, 2, 100); // the next transaction starts afresh
        pending.committed();
        assertEquals(new Counts(6, 5, 1, 600, 500), Counts.of(tally.snapshot()));
    }

    @Test
    void anAbortFailsEveryRecordOwnFailuresFirstThenTheFirstRecordsByNameAndCountsTheRest() {
        DeliveryTally tally = new DeliveryTally(3);
        PendingOutcomes pending = new PendingOutcomes(tally);
        List<Callback> callbacks = send(pending, 1, 1_000, 10);
        callbacks.get(1).onCompletion(null, new RecordTooLargeException("too large"));
        pending.aborted(new TimeoutException("the commit timed out"));
        DeliverySnapshot s = tally.snapshot();
        assertEquals(new Counts(1_000, 0, 1_000, 10_000, 0), Counts.of(s));
        assertEquals(List.of("in.jsonl:2: record too large: too large",
                "in.jsonl:1: not committed: its transaction was aborted (the commit timed out)",
                "in.jsonl:3: not committed: its transaction was aborted (the commit timed out)"),
                s.firstFailures().stream().map(Object::toString).toList());
    }

    /**
     * After a record's own failure the producer refuses the commit with "we are in an error state": the records only
     * in the transaction say which record broke it, not those words (a new user's summary listed them nine times).
     */
    @Test
    void anAbortAfterARecordsOwnFailureNamesThatRecord() {
        DeliveryTally tally = new DeliveryTally(3);
        PendingOutcomes pending = new PendingOutcomes(tally);
        List<Callback> callbacks = send(pending, 1, 5, 10);
        callbacks.get(3).onCompletion(null, new RecordTooLargeException("too large"));
        pending.aborted(new KafkaException("Cannot execute transactional method because we are in an error state"));
        assertEquals(List.of("in.jsonl:4: record too large: too large",
                "in.jsonl:1: not committed: its transaction was aborted (after in.jsonl:4 failed in it)",
                "in.jsonl:2: not committed: its transaction was aborted (after in.jsonl:4 failed in it)"),
                tally.snapshot().firstFailures().stream().map(Object::toString).toList());
    }

    /**
     * A commit that timed out may have landed: its records were called failed ("its transaction was aborted"), and a
     * person who sent them again would have doubled them. They stay without an answer; a record refused before it
     * joined the transaction is failed all the same.
     */
    @Test
    void aCommitWithoutAClearAnswerLeavesItsRecordsWithoutOneExceptThoseThatFailedOnTheirOwn() {
        DeliveryTally tally = new DeliveryTally(3);
        PendingOutcomes pending = new PendingOutcomes(tally);
        List<Callback> callbacks = send(pending, 1, 100, 10);
        callbacks.get(4).onCompletion(null, new RecordTooLargeException("too large"));
        assertTrue(!PendingOutcomes.refusedAfterAFailedSend(new TimeoutException("the commit timed out")));
        pending.unknown();
        DeliverySnapshot s = tally.snapshot();
        assertEquals(new Counts(100, 0, 1, 1_000, 0), Counts.of(s));
        assertEquals(99, s.pending());
        assertEquals(List.of("in.jsonl:5: record too large: too large"),
                s.firstFailures().stream().map(Object::toString).toList());

        send(pending, 101, 2, 10); // the next transaction starts afresh
        pending.committed();
        assertEquals(new Counts(102, 2, 1, 1_020, 20), Counts.of(tally.snapshot()));
    }

    private static List<Callback> send(PendingOutcomes pending, int firstLine, int records, long size) {
        List<Callback> callbacks = new ArrayList<>();
        for (int i = 0; i < records; i++) {
            long line = firstLine + i;
            callbacks.add(pending.sending(new Origin("in.jsonl", line, line * size, (line + 1) * size), size));
        }
        return callbacks;
    }

    private record Counts(long sent, long acknowledged, long failed, long bytesSent, long bytesAcknowledged) {
        static Counts of(DeliverySnapshot s) {
            return new Counts(s.sent(), s.acknowledged(), s.failed(), s.bytesSent(), s.bytesAcknowledged());
        }
    }
}
