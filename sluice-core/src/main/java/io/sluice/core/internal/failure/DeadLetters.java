package io.sluice.core.internal.failure;

import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Where a record that failed every attempt goes when the outcome is a dead letter: published at once
 * ({@link DeadLetterPublisher}), or held until the commit that covers its offset sends it in the same transaction
 * ({@link PendingDeadLetters}). Once {@link #deadLetter} returns, the record counts as settled for the ledger.
 *
 * <p>Threading: implementations are safe for concurrent use by workers.
 */
public interface DeadLetters {

    /** Takes the record's dead letter; throws when it cannot, and the engine stops rather than skip the record. */
    void deadLetter(ConsumerRecord<byte[], byte[]> record, Throwable error, int attempts) throws Exception;

    /** The dead-letter topic, for errors. */
    String topic();
}
