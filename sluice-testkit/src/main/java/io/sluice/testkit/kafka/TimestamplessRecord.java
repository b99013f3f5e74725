package io.sluice.testkit.kafka;

import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * A record sent with no timestamp: CreateTime -1 in the log, as clients other than Java's write when the application
 * sets none (consumers then see {@code CreateTime:-1}). Java's producer refuses a negative timestamp in a
 * {@link ProducerRecord}'s constructor and stamps a null one with the present, but sends what {@link #timestamp} says,
 * and -1 is the wire's "no timestamp".
 */
public final class TimestamplessRecord extends ProducerRecord<byte[], byte[]> {

    public TimestamplessRecord(String topic, int partition, byte[] key, byte[] value) {
        super(topic, partition, key, value);
    }

    @Override
    public Long timestamp() {
        return -1L;
    }
}
