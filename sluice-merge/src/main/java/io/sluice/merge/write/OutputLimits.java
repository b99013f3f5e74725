package io.sluice.merge.write;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

/**
 * What the output topic refuses, checked before a record joins a transaction: a record the broker refuses fails the
 * whole transaction, and the restart would meet the same record again and again. So a record whose timestamp is
 * further in the future or the past than the topic accepts ({@code message.timestamp.after.max.ms}, an hour by default
 * in Kafka 4, and {@code before.max.ms}), a record without a key for a compacted topic, or one larger than
 * {@code max.message.bytes} even before compression can shrink it (only known when the output is written
 * uncompressed), is set aside as a dead letter (without its value) or stops the merge, in words. (A compacted output
 * took the merge down on its first record without a key, in Kafka's words: "One or more records have been rejected
 * due to 20 record errors in total", and every restart the same.)
 *
 * <p>Threading: immutable; the current time is the caller's.
 */
public record OutputLimits(String topic, long maxMessageBytes, long maxFutureMillis, long maxPastMillis,
        boolean compacted, boolean compressed) {

    /** The output topic's limits. */
    public OutputLimits(long maxMessageBytes, long maxFutureMillis, long maxPastMillis, boolean compacted,
            boolean compressed) {
        this("the output topic", maxMessageBytes, maxFutureMillis, maxPastMillis, compacted, compressed);
    }

    /** What the side topic {@code name} ({@code role}: "late", "dead-letter") takes, as the output's writer writes. */
    public OutputLimits forSideTopic(String role, String name, long maxMessageBytes, long maxFutureMillis,
            long maxPastMillis, boolean compacted) {
        return new OutputLimits("the " + role + " topic '" + name + "'", maxMessageBytes, maxFutureMillis, maxPastMillis,
                compacted, compressed);
    }

    /**
     * How much sooner than the output's {@code message.timestamp.before.max.ms} a record counts as too old: the broker
     * judges it when the record arrives, a moment after this check, and a record it then refuses fails the whole
     * transaction (a review).
     */
    static final long PAST_MARGIN_MILLIS = 10_000;

    /** A record batch's and a record's own framing, beyond the bytes of key, value and headers. */
    private static final int FRAMING = 128;

    /** Why the output would refuse {@code record} (with {@code extraHeaderBytes} more), or null. */
    public String refusal(ConsumerRecord<byte[], byte[]> record, int extraHeaderBytes, long now) {
        if (compacted && record.key() == null) {
            return "it has no key, and " + topic + " is compacted (cleanup.policy compact), which takes only "
                    + "records with one";
        }
        String time = timestampRefusal(record.timestamp(), now);
        return time != null ? time : sizeRefusal(record, extraHeaderBytes);
    }

    /** Why the topic would refuse a record stamped {@code timestamp}, or null. */
    public String timestampRefusal(long timestamp, long now) {
        if (timestamp < 0) {
            return null; // none: written without one, the broker stamps it (its -1 kept in a header)
        }
        if (maxFutureMillis < Long.MAX_VALUE && timestamp > now + maxFutureMillis) {
            return "its timestamp " + timestamp + " is " + (timestamp - now) + " ms in the future, more than " + topic
                    + " accepts (message.timestamp.after.max.ms " + maxFutureMillis + ")";
        }
        if (maxPastMillis < Long.MAX_VALUE && timestamp < now - maxPastMillis + PAST_MARGIN_MILLIS) {
            return "its timestamp " + timestamp + " is " + (now - timestamp) + " ms in the past, more than " + topic
                    + " accepts (message.timestamp.before.max.ms " + maxPastMillis + ")";
        }
        return null;
    }

    /**
     * Why the topic would refuse {@code record} (with {@code extraHeaderBytes} more) for its size, or null; only known
     * when the writer does not compress.
     */
    public String sizeRefusal(ConsumerRecord<byte[], byte[]> record, int extraHeaderBytes) {
        if (compressed) {
            return null;
        }
        long size = FRAMING + extraHeaderBytes + Math.max(0, record.serializedKeySize())
                + Math.max(0, record.serializedValueSize());
        for (Header h : record.headers()) {
            size += h.key().length() + (h.value() == null ? 0 : h.value().length);
        }
        return size > maxMessageBytes ? "it is " + size + " bytes, more than the max.message.bytes of " + topic + ", "
                + maxMessageBytes : null;
    }
}
