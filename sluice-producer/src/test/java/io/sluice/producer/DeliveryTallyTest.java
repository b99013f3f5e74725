package io.sluice.producer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InvalidTimestampException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.junit.jupiter.api.Test;

/** The tally's counting; the producer's callbacks are called as the producer's I/O thread would. */
class DeliveryTallyTest {

    private static final RecordMetadata ACK = new RecordMetadata(new TopicPartition("t", 0), 0, 0, 0, 3, 5);

    @Test
    void countsSendsOutcomesAndBytesAndKeepsTheFirstFailuresWithTheirOrigin() {
        DeliveryTally tally = new DeliveryTally(2);
        List<Callback> callbacks = new ArrayList<>();
        for (int line = 1; line <= 6; line++) {
            callbacks.add(tally.sent("events.jsonl:" + line, 100));
        }
        callbacks.get(0).onCompletion(ACK, null);
        callbacks.get(1).onCompletion(null, new RecordTooLargeException("too large"));
        callbacks.get(2).onCompletion(ACK, null);
        callbacks.get(3).onCompletion(null, new IllegalStateException("closed"));
        callbacks.get(4).onCompletion(null, new IllegalStateException("closed again"));

        DeliverySnapshot s = tally.snapshot();
        assertEquals(6, s.sent());
        assertEquals(2, s.acknowledged());
        assertEquals(3, s.failed());
        assertEquals(1, s.pending());
        assertEquals(600, s.bytesSent());
        assertEquals(200, s.bytesAcknowledged());
        assertEquals(List.of("events.jsonl:2: record too large: too large",
                "events.jsonl:4: closed"), s.firstFailures().stream().map(Object::toString).toList());
        assertEquals("events.jsonl:2", tally.firstFailure().orElseThrow().origin());
        assertTrue(s.ackP50().compareTo(Duration.ZERO) > 0 && s.ackP99().compareTo(s.ackP50()) >= 0);
        assertTrue(s.ackMax().compareTo(s.ackP99()) >= 0);
    }

    /**
     * A batch refused for one record fails its neighbours too, as Kafka's producer reports them (KIP-467): the record
     * at fault is listed with the broker's reason even when its innocent neighbours came first and filled the list.
     */
    @Test
    void theRecordAtFaultIsListedBeforeTheBatchMatesThatFailedWithIt() {
        DeliveryTally tally = new DeliveryTally(3);
        List<Callback> callbacks = new ArrayList<>();
        for (int line = 1; line <= 6; line++) {
            callbacks.add(tally.sent("in.jsonl:" + line, 10));
        }
        KafkaException mate = new KafkaException("Failed to append record because it was part of a batch which had "
                + "one more more invalid records");
        for (int i = 0; i < 5; i++) {
            callbacks.get(i).onCompletion(null, mate);
        }
        callbacks.get(5).onCompletion(null, new InvalidTimestampException("Timestamp 99 of message with offset 5 is "
                + "out of range"));

        DeliverySnapshot s = tally.snapshot();
        assertEquals(6, s.failed());
        assertEquals(3, s.firstFailures().size());
        assertTrue(s.firstFailures().stream().anyMatch(f -> f.toString().equals("in.jsonl:6: invalid timestamp: "
                + "Timestamp 99 of message with offset 5 is out of range")), s.firstFailures().toString());
        assertEquals("in.jsonl:1: refused with its batch, in which the broker refused another record (listed with its "
                + "own reason); this record was not at fault", s.firstFailures().get(0).toString());
    }

    @Test
    void aCallbackCountsOnceAndPassesTheOutcomeOn() {
        DeliveryTally tally = new DeliveryTally();
        AtomicInteger passedOn = new AtomicInteger();
        Callback callback = tally.sent("a", 1, (metadata, error) -> passedOn.incrementAndGet());
        callback.onCompletion(null, new IllegalStateException("send threw")); // as the caller does when send throws
        callback.onCompletion(ACK, null);
        DeliverySnapshot s = tally.snapshot();
        assertEquals(1, s.failed());
        assertEquals(0, s.acknowledged());
        assertEquals(1, passedOn.get());
    }

    @Test
    void aFreshTallyIsEmpty() {
        DeliverySnapshot s = new DeliveryTally().snapshot();
        assertEquals(new DeliverySnapshot(0, 0, 0, 0, 0, List.of(), Duration.ZERO, Duration.ZERO, Duration.ZERO), s);
        assertTrue(new DeliveryTally().firstFailure().isEmpty());
    }

    @Test
    void concurrentSendsAndOutcomesAddUp() throws Exception {
        DeliveryTally tally = new DeliveryTally();
        ExecutorService threads = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int thread = t;
                done.add(threads.submit(() -> {
                    for (int i = 0; i < 10_000; i++) {
                        Callback callback = tally.sent(thread + ":" + i, 10);
                        callback.onCompletion(i % 100 == 0 ? null : ACK,
                                i % 100 == 0 ? new IllegalStateException("every hundredth") : null);
                    }
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            threads.shutdown();
        }
        DeliverySnapshot s = tally.snapshot();
        assertEquals(40_000, s.sent());
        assertEquals(39_600, s.acknowledged());
        assertEquals(400, s.failed());
        assertEquals(0, s.pending());
        assertEquals(396_000, s.bytesAcknowledged());
        assertEquals(DeliveryTally.DEFAULT_KEPT_FAILURES, s.firstFailures().size());
    }
}
