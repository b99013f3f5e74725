package io.sluice.merge.merging;

import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * A record read from an input, with its event time parsed on the reader's thread, or why it has none (then
 * {@code problem} is set and {@code time} is meaningless).
 */
public record Arrival(ConsumerRecord<byte[], byte[]> record, long time, String problem) {

    public static Arrival timed(ConsumerRecord<byte[], byte[]> record, long time) {
        return new Arrival(record, time, null);
    }

    public static Arrival untimed(ConsumerRecord<byte[], byte[]> record, String problem) {
        return new Arrival(record, 0, problem);
    }

    /** What the record costs in memory while buffered, as the engine counts it. */
    public long bytes() {
        return Math.max(0, record.serializedKeySize()) + Math.max(0, record.serializedValueSize()) + 64;
    }
}
