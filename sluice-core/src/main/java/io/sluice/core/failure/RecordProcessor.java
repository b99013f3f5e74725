package io.sluice.core.failure;

import io.sluice.core.AsyncRecordHandler;
import io.sluice.core.FailureOutcome;
import io.sluice.core.RecordHandler;
import io.sluice.core.lane.Invoker;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.Deserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The user's handler as lanes call it: deserializes, runs one attempt, and applies the failure outcome once every
 * attempt failed. Deserialization happens here, on a worker, so a record that cannot be read is one failed record
 * (dead-lettered with its original bytes, never retried), not an exception that stops the consumer.
 *
 * <p>Threading: safe for concurrent use by workers; counters are adders.
 */
public final class RecordProcessor<K, V> implements Invoker {

    private static final Logger LOG = LoggerFactory.getLogger(RecordProcessor.class);

    private final Deserializer<K> keys;
    private final Deserializer<V> values;
    private final RecordHandler<K, V> handler;
    private final AsyncRecordHandler<K, V> asyncHandler;
    private final int maxAttempts;
    private final Backoff backoff;
    private final FailureOutcome outcome;
    private final DeadLetterPublisher deadLetters;
    private final Consumer<Throwable> stopEngine;

    public final LongAdder failedAttempts = new LongAdder();
    public final LongAdder retried = new LongAdder();
    public final LongAdder skipped = new LongAdder();
    public final LongAdder deadLettered = new LongAdder();

    private RecordProcessor(Deserializer<K> keys, Deserializer<V> values, RecordHandler<K, V> handler,
            AsyncRecordHandler<K, V> asyncHandler, int maxAttempts, Backoff backoff, FailureOutcome outcome,
            DeadLetterPublisher deadLetters, Consumer<Throwable> stopEngine) {
        this.keys = keys;
        this.values = values;
        this.handler = handler;
        this.asyncHandler = asyncHandler;
        this.maxAttempts = maxAttempts;
        this.backoff = backoff;
        this.outcome = outcome;
        this.deadLetters = deadLetters;
        this.stopEngine = stopEngine;
    }

    public static <K, V> RecordProcessor<K, V> blocking(Deserializer<K> keys, Deserializer<V> values,
            RecordHandler<K, V> handler, int maxAttempts, Backoff backoff, FailureOutcome outcome,
            DeadLetterPublisher deadLetters, Consumer<Throwable> stopEngine) {
        return new RecordProcessor<>(keys, values, handler, null, maxAttempts, backoff, outcome, deadLetters,
                stopEngine);
    }

    public static <K, V> RecordProcessor<K, V> async(Deserializer<K> keys, Deserializer<V> values,
            AsyncRecordHandler<K, V> handler, int maxAttempts, Backoff backoff, FailureOutcome outcome,
            DeadLetterPublisher deadLetters, Consumer<Throwable> stopEngine) {
        return new RecordProcessor<>(keys, values, null, handler, maxAttempts, backoff, outcome, deadLetters,
                stopEngine);
    }

    @Override
    public CompletionStage<?> attempt(ConsumerRecord<byte[], byte[]> raw) throws Throwable {
        ConsumerRecord<K, V> record;
        try {
            record = typed(raw);
        } catch (RuntimeException e) {
            failedAttempts.increment();
            throw new UnreadableRecordException(e);
        }
        try {
            if (asyncHandler != null) {
                CompletionStage<?> stage = asyncHandler.process(record);
                if (stage == null) {
                    throw new NullPointerException("the asynchronous handler returned no CompletionStage");
                }
                return stage;
            }
            handler.process(record);
            return null;
        } catch (Throwable t) {
            failedAttempts.increment();
            throw t;
        }
    }

    @Override
    public boolean retriable(Throwable error) {
        return !(error instanceof UnreadableRecordException);
    }

    @Override
    public int maxAttempts() {
        return maxAttempts;
    }

    @Override
    public long backoffNanos(int failures) {
        return backoff.nanosAfter(failures);
    }

    @Override
    public void retrying() {
        retried.increment();
    }

    @Override
    public boolean giveUp(ConsumerRecord<byte[], byte[]> raw, Throwable error, int attempts) {
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

    /** The bytes of a record could not be turned into a key and value: retrying cannot help. */
    public static final class UnreadableRecordException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        UnreadableRecordException(RuntimeException cause) {
            super("cannot deserialize: " + cause.getMessage(), cause);
        }
    }
}
