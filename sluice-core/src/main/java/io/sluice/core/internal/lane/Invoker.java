package io.sluice.core.internal.lane;

import java.util.concurrent.CompletionStage;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * How a lane runs one attempt at a record and what it does when every attempt failed. Implemented by the engine's
 * record processor, which wraps the user's handler.
 *
 * <p>Threading: called from worker threads, concurrently for different lanes.
 */
public interface Invoker {

    /**
     * One attempt.
     *
     * @return null when the attempt finished successfully on this thread, or a stage that completes when an
     *         asynchronous attempt ends
     * @throws Throwable when the attempt failed on this thread
     */
    CompletionStage<?> attempt(ConsumerRecord<byte[], byte[]> record) throws Throwable;

    /** Whether an attempt that failed with {@code error} can succeed when repeated (false for unreadable bytes). */
    boolean retriable(Throwable error);

    /**
     * Every attempt failed: apply the failure outcome (skip, dead letter, stop).
     *
     * @return true when the record is done; false when it must stay pending (the engine stops because of it)
     */
    boolean giveUp(ConsumerRecord<byte[], byte[]> record, Throwable error, int attempts);

    int maxAttempts();

    /** The wait before the attempt after {@code failures} failures. */
    long backoffNanos(int failures);

    /** Counts a failed attempt that will be retried. */
    void retrying();
}
