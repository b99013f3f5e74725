package io.sluice.core.internal.lane;

import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * An {@link Invoker} whose attempts are the test's {@link Attempt}, without backoff, recording the failures it saw
 * and the records it gave up on. Every failure is retriable until {@code maxAttempts}.
 *
 * <p>Threading: called from workers; the recordings are concurrent lists the test thread reads.
 */
final class ScriptedInvoker implements Invoker {

    /** One attempt, as a handler would make it. */
    @FunctionalInterface
    interface Attempt {
        CompletionStage<?> run(ConsumerRecord<byte[], byte[]> record) throws Throwable;
    }

    private final Attempt attempt;
    private final int maxAttempts;
    private final boolean doneWhenGivenUp;
    final List<Throwable> failures = new CopyOnWriteArrayList<>();
    final List<Long> givenUp = new CopyOnWriteArrayList<>();

    /**
     * @param doneWhenGivenUp what {@link #giveUp} answers: true as for a skip or dead letter, false as for a stop
     */
    ScriptedInvoker(Attempt attempt, int maxAttempts, boolean doneWhenGivenUp) {
        this.attempt = attempt;
        this.maxAttempts = maxAttempts;
        this.doneWhenGivenUp = doneWhenGivenUp;
    }

    /** Attempts that should not fail; one try each. */
    static ScriptedInvoker of(Attempt attempt) {
        return new ScriptedInvoker(attempt, 1, true);
    }

    @Override
    public CompletionStage<?> attempt(ConsumerRecord<byte[], byte[]> record) throws Throwable {
        return attempt.run(record);
    }

    @Override
    public boolean retriable(Throwable error) {
        failures.add(error);
        return true;
    }

    @Override
    public boolean giveUp(ConsumerRecord<byte[], byte[]> record, Throwable error, int attempts) {
        failures.add(error); // the lane asks retriable() only while attempts are left
        givenUp.add(record.offset());
        return doneWhenGivenUp;
    }

    @Override
    public int maxAttempts() {
        return maxAttempts;
    }

    @Override
    public long backoffNanos(int failures) {
        return 0;
    }

    @Override
    public void retrying() {
    }
}
