package io.sluice.core;

import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Processes one record. Records of one lane reach the handler one at a time and in offset order; records of
 * different lanes run in parallel on the engine's workers, so the handler must be safe for concurrent use.
 *
 * <p>Returning normally means the record is done: its offset may be committed. Throwing is a failure of this
 * record only; the engine retries it and then applies the configured {@link FailureOutcome}. A handler may block:
 * it runs on a worker thread, never on the consumer thread.
 */
@FunctionalInterface
public interface RecordHandler<K, V> {

    void process(ConsumerRecord<K, V> record) throws Exception;
}
