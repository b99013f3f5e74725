package io.sluice.core.failure;

import io.sluice.core.FailureOutcome;
import io.sluice.core.RecordHandler;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.Deserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes one record through deserialization and the user's handler to its end: retries with backoff, then the
 * failure outcome. Deserialization happens here, on a worker, so a record that cannot be read is one failed record
 * (dead-lettered with its original bytes), never an exception that stops the consumer.
 *
 * <p>Threading: safe for concurrent use by workers; counters are adders. A retry waits on the worker's own thread,
 * which keeps the lane in order (the next record of a lane never overtakes a record being retried).
 */
public final class RecordProcessor<K, V> {

    private static final Logger LOG = LoggerFactory.getLogger(RecordProcessor.class);

    private final Deserializer<K> keys;
    private final Deserializer<V> values;
    private final RecordHandler<K, V> handler;
    private final int maxAttempts;
    private final Backoff backoff;
    private final FailureOutcome outcome;
    private final DeadLetterPublisher deadLetters;
    private final Consumer<Throwable> stopEngine;

    public final LongAdder failedAttempts = new LongAdder();
    public final LongAdder retried = new LongAdder();
    public final LongAdder skipped = new LongAdder();
    public final LongAdder deadLettered = new LongAdder();

    public RecordProcessor(Deserializer<K> keys, Deserializer<V> values, RecordHandler<K, V> handler, int maxAttempts,
            Backoff backoff, FailureOutcome outcome, DeadLetterPublisher deadLetters, Consumer<Throwable> stopEngine) {
        this.keys = keys;
        this.values = values;
        this.handler = handler;
        this.maxAttempts = maxAttempts;
        this.backoff = backoff;
        this.outcome = outcome;
        this.deadLetters = deadLetters;
        this.stopEngine = stopEngine;
    }

    /**
     * @param wanted false once the record's partition is revoked or the engine drains: no further attempt is made
     * @return true when the record is done; false when it stays pending (to be processed again after a restart)
     */
    public boolean process(ConsumerRecord<byte[], byte[]> raw, BooleanSupplier wanted) {
        ConsumerRecord<K, V> record;
        try {
            record = typed(raw);
        } catch (RuntimeException e) {
            failedAttempts.increment();
            return giveUp(raw, new IllegalArgumentException("cannot deserialize: " + e.getMessage(), e), 1);
        }
        Throwable last = null;
        for (int attempt = 1; attempt <= maxAttempts; attempt++) {
            try {
                handler.process(record);
                return true;
            } catch (Exception | LinkageError | AssertionError e) {
                failedAttempts.increment();
                last = e;
                if (attempt < maxAttempts) {
                    retried.increment();
                    if (!pause(backoff.nanosAfter(attempt)) || !wanted.getAsBoolean()) {
                        return false; // revoked or shutting down: the record stays pending and is replayed
                    }
                }
            }
        }
        return giveUp(raw, last, maxAttempts);
    }

    private boolean giveUp(ConsumerRecord<byte[], byte[]> raw, Throwable error, int attempts) {
        switch (outcome) {
            case SKIP -> {
                skipped.increment();
                LOG.warn("skipping {}-{} offset {} after {} attempt(s): {}", raw.topic(), raw.partition(), raw.offset(),
                        attempts, error.toString());
                return true;
            }
            case DEAD_LETTER -> {
                try {
                    deadLetters.publish(raw, error, attempts);
                    deadLettered.increment();
                    return true;
                } catch (Exception e) {
                    stopEngine.accept(new RecordFailedException("cannot publish to dead-letter topic '"
                            + deadLetters.topic() + "' (" + e + ")", raw, attempts, error));
                    return false;
                }
            }
            default -> {
                stopEngine.accept(new RecordFailedException("record failed", raw, attempts, error));
                return false;
            }
        }
    }

    private ConsumerRecord<K, V> typed(ConsumerRecord<byte[], byte[]> raw) {
        K key = keys.deserialize(raw.topic(), raw.headers(), raw.key());
        V value = values.deserialize(raw.topic(), raw.headers(), raw.value());
        return new ConsumerRecord<>(raw.topic(), raw.partition(), raw.offset(), raw.timestamp(), raw.timestampType(),
                raw.serializedKeySize(), raw.serializedValueSize(), key, value, raw.headers(), raw.leaderEpoch(),
                raw.deliveryCount());
    }

    private static boolean pause(long nanos) {
        try {
            TimeUnit.NANOSECONDS.sleep(nanos);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
