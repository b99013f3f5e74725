package io.sluice.core.internal.failure;

import static io.sluice.core.internal.EngineLog.LOG;

import io.sluice.core.AsyncRecordHandler;
import io.sluice.core.RecordHandler;
import io.sluice.core.internal.lane.Invoker;
import io.sluice.core.sink.RecordRejectedException;
import io.sluice.core.sink.Sink;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.LongAdder;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * What lanes run for each record, and what they do when every attempt failed: a user's handler (with
 * deserialization) or a sink's write, under a {@link FailurePolicy}.
 *
 * <p>Deserialization happens here, on a worker, so a record that cannot be read is one failed record (dead-lettered
 * with its original bytes, never retried), not an exception that stops the consumer.
 *
 * <p>Threading: safe for concurrent use by workers; counters are adders.
 */
public final class RecordProcessor implements Invoker {

    /** One attempt at a record: null when it finished on this thread, or a stage for an asynchronous attempt. */
    @FunctionalInterface
    public interface Attempt {
        CompletionStage<?> run(ConsumerRecord<byte[], byte[]> record) throws Throwable;
    }

    private final Attempt attempt;
    private final FailurePolicy policy;
    private final boolean sink;

    private final LongAdder failedAttempts = new LongAdder();
    private final LongAdder retried = new LongAdder();
    private final LongAdder skipped = new LongAdder();
    private final LongAdder deadLettered = new LongAdder();

    /** What became of attempts so far, counted since start. */
    public record Counts(long failedAttempts, long retried, long skipped, long deadLettered) {
    }

    public Counts counts() {
        return new Counts(failedAttempts.sum(), retried.sum(), skipped.sum(), deadLettered.sum());
    }

    private RecordProcessor(Attempt attempt, FailurePolicy policy, boolean sink) {
        this.attempt = attempt;
        this.policy = policy;
        this.sink = sink;
    }

    public static <K, V> RecordProcessor blocking(Deserializer<K> keys, Deserializer<V> values,
            RecordHandler<K, V> handler, FailurePolicy policy) {
        return new RecordProcessor(raw -> {
            handler.process(typed(keys, values, raw));
            return null;
        }, policy, false);
    }

    public static <K, V> RecordProcessor async(Deserializer<K> keys, Deserializer<V> values,
            AsyncRecordHandler<K, V> handler, FailurePolicy policy) {
        return new RecordProcessor(raw -> {
            CompletionStage<?> stage = handler.process(typed(keys, values, raw));
            if (stage == null) {
                throw new NullPointerException("the asynchronous handler returned no CompletionStage");
            }
            return stage;
        }, policy, false);
    }

    /**
     * A sink's writes. Only a {@link RecordRejectedException} is the record's own failure, to which the failure
     * outcome applies. Any other failure is the sink's (storage down, disk full): a sink retries its own I/O, so it is
     * not retried here, and it always stops the engine, whatever the outcome says, because skipping or
     * dead-lettering a record the storage could not take would lose it.
     */
    public static RecordProcessor sink(Sink sink, FailurePolicy policy) {
        return new RecordProcessor(raw -> {
            sink.write(raw);
            return null;
        }, policy, true);
    }

    @Override
    public CompletionStage<?> attempt(ConsumerRecord<byte[], byte[]> raw) throws Throwable {
        try {
            return attempt.run(raw);
        } catch (Throwable t) {
            failedAttempts.increment();
            throw t;
        }
    }

    @Override
    public boolean retriable(Throwable error) {
        return !sink && !(error instanceof UnreadableRecordException) && !(error instanceof RecordRejectedException);
    }

    @Override
    public int maxAttempts() {
        return policy.maxAttempts();
    }

    @Override
    public long backoffNanos(int failures) {
        return policy.backoff().nanosAfter(failures);
    }

    @Override
    public void retrying() {
        retried.increment();
    }

    @Override
    public boolean giveUp(ConsumerRecord<byte[], byte[]> raw, Throwable error, int attempts) {
        if (sink && !(error instanceof RecordRejectedException)) {
            policy.stopEngine().accept(new RecordFailedException("the sink failed", raw, attempts, error));
            return false;
        }
        switch (policy.outcome()) {
            case SKIP -> {
                skipped.increment();
                LOG.warn("{}-{}@{} skipped after {} attempt(s): {}", raw.topic(), raw.partition(), raw.offset(),
                        attempts, reason(error));
                return true;
            }
            case DEAD_LETTER -> {
                try {
                    policy.deadLetters().deadLetter(raw, error, attempts);
                    deadLettered.increment();
                    LOG.warn("{}-{}@{} goes to the dead-letter topic '{}' after {} attempt(s): {}", raw.topic(),
                            raw.partition(), raw.offset(), policy.deadLetters().topic(), attempts, reason(error));
                    return true;
                } catch (Exception e) {
                    policy.stopEngine().accept(new RecordFailedException("cannot publish to dead-letter topic '"
                            + policy.deadLetters().topic() + "' (" + e + ")", raw, attempts, error));
                    return false;
                }
            }
            default -> {
                // a restart meets the same record: say how to get past it
                policy.stopEngine().accept(new RecordFailedException("record failed (the failure outcome is stop; a"
                        + " restart meets this record again: send such records to a dead-letter topic, or skip them,"
                        + " to get past it)", raw, attempts, error));
                return false;
            }
        }
    }

    /**
     * Why a record was given up, for a person: a rejection or an unreadable record says it in words; any other error is
     * a handler's, whose class is part of what its author needs to know.
     */
    static String reason(Throwable error) {
        boolean inWords = (error instanceof RecordRejectedException || error instanceof UnreadableRecordException)
                && error.getMessage() != null;
        return inWords ? error.getMessage() : error.toString();
    }

    private static <K, V> ConsumerRecord<K, V> typed(Deserializer<K> keys, Deserializer<V> values,
            ConsumerRecord<byte[], byte[]> raw) {
        K key;
        V value;
        try {
            key = keys.deserialize(raw.topic(), raw.headers(), raw.key());
            value = values.deserialize(raw.topic(), raw.headers(), raw.value());
        } catch (RuntimeException e) {
            throw new UnreadableRecordException(e);
        }
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
