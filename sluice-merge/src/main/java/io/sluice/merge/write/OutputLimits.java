package io.sluice.merge.write;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

/**
 * What the output topic refuses, checked before a record joins a transaction: a record the broker refuses fails the
 * whole transaction, and the restart would meet the same record again and again. So a record whose timestamp is
 * further in the future than the topic accepts ({@code message.timestamp.after.max.ms}, an hour by default in Kafka
 * 4), or that is larger than {@code max.message.bytes} even before compression can shrink it (only known when the
 * output is written uncompressed), is set aside as a dead letter (without its value) or stops the merge, in words.
 *
 * <p>Threading: immutable; the current time is the caller's.
 */
public record OutputLimits(long maxMessageBytes, long maxFutureMillis, boolean compressed) {

    /** A record batch's and a record's own framing, beyond the bytes of key, value and headers. */
    private static final int FRAMING = 128;

    /** Why the output would refuse {@code record} (with {@code extraHeaderBytes} more), or null. */
    public String refusal(ConsumerRecord<byte[], byte[]> record, int extraHeaderBytes, long now) {
        if (maxFutureMillis < Long.MAX_VALUE && record.timestamp() > now + maxFutureMillis) {
            return "its timestamp " + record.timestamp() + " is " + (record.timestamp() - now) + " ms in the future, "
                    + "more than the output topic accepts (message.timestamp.after.max.ms " + maxFutureMillis + ")";
        }
        if (!compressed) {
            long size = FRAMING + extraHeaderBytes + Math.max(0, record.serializedKeySize())
                    + Math.max(0, record.serializedValueSize());
            for (Header h : record.headers()) {
                size += h.key().length() + (h.value() == null ? 0 : h.value().length);
            }
            if (size > maxMessageBytes) {
                return "it is " + size + " bytes, more than the output topic's max.message.bytes " + maxMessageBytes;
            }
        }
        return null;
    }
}
