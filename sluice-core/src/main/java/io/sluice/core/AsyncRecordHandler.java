package io.sluice.core;

import java.util.concurrent.CompletionStage;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Processes one record asynchronously: the record is done when the returned stage completes normally, and failed
 * when it completes exceptionally (or the call throws). The next record of the same lane starts only after the
 * stage completes, so lanes keep their order; up to {@code concurrency} records are in flight at once. The call
 * itself runs on a worker thread and should return quickly.
 */
@FunctionalInterface
public interface AsyncRecordHandler<K, V> {

    CompletionStage<?> process(ConsumerRecord<K, V> record);
}
