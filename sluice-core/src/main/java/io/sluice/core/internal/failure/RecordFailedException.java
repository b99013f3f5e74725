package io.sluice.core.internal.failure;

import org.apache.kafka.clients.consumer.ConsumerRecord;

/** A record failed every attempt (or could not be dead-lettered) and the engine stops because of it. */
public final class RecordFailedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public RecordFailedException(String what, ConsumerRecord<?, ?> record, int attempts, Throwable cause) {
        super(what + ": " + record.topic() + "-" + record.partition() + " offset " + record.offset() + " after "
                + attempts + " attempt(s): " + RecordProcessor.reason(cause), cause);
    }
}
