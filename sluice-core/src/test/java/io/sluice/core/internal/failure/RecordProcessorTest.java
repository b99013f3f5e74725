package io.sluice.core.internal.failure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.core.FailureOutcome;
import io.sluice.core.internal.lane.TestRecords;
import io.sluice.core.sink.ForwardingSink;
import io.sluice.core.sink.RecordRejectedException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.junit.jupiter.api.Test;

/** What a lane's attempts run, and what the failure outcome does once every attempt failed. */
class RecordProcessorTest {

    private final List<Throwable> stops = new CopyOnWriteArrayList<>();
    private final ConsumerRecord<byte[], byte[]> record = TestRecords.at(7);

    private FailurePolicy policy(FailureOutcome outcome) {
        return new FailurePolicy(3, new Backoff(Duration.ofMillis(100), Duration.ofSeconds(1)), outcome, null,
                stops::add);
    }

    @Test
    void aRecordThatCannotBeDeserializedFailsWithoutRetries() {
        ConsumerRecord<byte[], byte[]> unreadable = new ConsumerRecord<>("orders", 0, 1, new byte[] {1}, new byte[0]);
        Deserializer<String> strict = (topic, data) -> {
            throw new IllegalArgumentException("not UTF-8");
        };
        RecordProcessor readsStrictly = RecordProcessor.blocking(strict, new ByteArrayDeserializer(), r -> { },
                policy(FailureOutcome.SKIP));

        Throwable error = assertThrows(Throwable.class, () -> readsStrictly.attempt(unreadable));

        assertInstanceOf(RecordProcessor.UnreadableRecordException.class, error);
        assertFalse(readsStrictly.retriable(error));
        assertTrue(readsStrictly.retriable(new IllegalStateException("the handler's own failure")));
        assertEquals(1, readsStrictly.counts().failedAttempts());
    }

    @Test
    void skipCountsTheRecordDoneAndStopEndsTheEngineWithTheRecordsError() {
        RecordProcessor skipping = RecordProcessor.blocking(new ByteArrayDeserializer(), new ByteArrayDeserializer(),
                r -> { }, policy(FailureOutcome.SKIP));
        RecordProcessor stopping = RecordProcessor.blocking(new ByteArrayDeserializer(), new ByteArrayDeserializer(),
                r -> { }, policy(FailureOutcome.STOP));
        IllegalStateException cause = new IllegalStateException("bad record");

        assertTrue(skipping.giveUp(record, cause, 3));
        assertEquals(1, skipping.counts().skipped());
        assertTrue(stops.isEmpty());

        assertFalse(stopping.giveUp(record, cause, 3), "the record stays pending: the engine stops before it");
        assertEquals(1, stops.size());
        assertInstanceOf(RecordFailedException.class, stops.get(0));
        assertSame(cause, stops.get(0).getCause());
    }

    @Test
    void aSinkFailureOtherThanARejectedRecordStopsTheEngineWhateverTheOutcome() throws Throwable {
        // the sink is never called: only the rules for its failures are under test
        RecordProcessor sink = RecordProcessor.sink(new ForwardingSink(null) {
        }, policy(FailureOutcome.SKIP));
        RecordRejectedException rejected = new RecordRejectedException("no schema");
        IllegalStateException diskFull = new IllegalStateException("disk full");

        assertFalse(sink.retriable(diskFull), "a sink retries its own I/O");
        assertFalse(sink.retriable(rejected));
        assertTrue(sink.giveUp(record, rejected, 1), "a rejected record is the record's failure: skipped");
        assertFalse(sink.giveUp(record, diskFull, 1), "skipping what storage could not take would lose it");
        assertEquals(1, stops.size());
        assertSame(diskFull, stops.get(0).getCause());
    }

    @Test
    void anAsynchronousHandlerThatReturnsNoStageFailsTheAttempt() throws Throwable {
        RecordProcessor async = RecordProcessor.async(new ByteArrayDeserializer(), new ByteArrayDeserializer(),
                r -> null, policy(FailureOutcome.SKIP));

        assertThrows(NullPointerException.class, () -> async.attempt(record));
        assertEquals(1, async.counts().failedAttempts());
        assertNull(RecordProcessor.blocking(new ByteArrayDeserializer(), new ByteArrayDeserializer(), r -> { },
                policy(FailureOutcome.SKIP)).attempt(record), "a blocking attempt finishes on the worker");
    }
}
