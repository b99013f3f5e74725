package io.sluice.cli.produce;

import io.sluice.cli.console.Units;
import io.sluice.producer.input.BadInputException;
import io.sluice.producer.input.InputRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * What the topic takes of a record, checked before it is sent: a partition it has, a timestamp within what it accepts
 * ({@code message.timestamp.after.max.ms} and {@code before.max.ms}, for CreateTime topics), a key when it is
 * compacted. A record the broker refuses for its content fails every record of its batch with it (Kafka's producer
 * fails them all, the innocent ones with "part of a batch which had one more more invalid records"), and in an
 * exactly-once import it breaks the transaction, so that every rerun stopped on the same line (a new user's run: one
 * record stamped years ahead failed its whole batch, and it was not among the ten failures listed). Said here, it is
 * one failed line with the reason, and the others go on.
 *
 * <p>The broker judges the time by its own clock: a record within a clock's skew of a limit may still be refused.
 *
 * @param topic      the topic's name, for the messages
 * @param partitions how many partitions it has
 * @param createTime whether it keeps the records' own timestamps ({@code message.timestamp.type} CreateTime), which
 *                   the limits apply to
 * @param maxAhead   how far ahead of the broker's clock a timestamp may be
 * @param maxBehind  how far behind it
 * @param compacted  whether its {@code cleanup.policy} compacts, which needs a key
 * @param maxRecordBytes the largest record the producer sends ({@code max.request.size}, with the batch's framing): a
 *                   larger one it refuses itself, which in a transaction puts the producer in an error state, so that
 *                   an exactly-once import stopped on it, every rerun too (a new user's run)
 *
 * <p>Immutable.
 */
record TopicRules(String topic, int partitions, boolean createTime, Duration maxAhead, Duration maxBehind,
        boolean compacted, long maxRecordBytes) {

    /**
     * Kafka's framing of one record in a batch of its own, at most: the batch header (61), the record's fixed part
     * (21: attributes, length, timestamp and offset deltas) and the key's, value's and header count's length varints
     * at their longest (5 each; a review found the producer counting 3 to 11 bytes more than a first estimate).
     */
    private static final int FRAMING = 61 + 21 + 3 * 5;
    /** At most, the two length varints of a header. */
    private static final int HEADER_FRAMING = 10;

    /**
     * These rules, with the producer's limit on one record: {@code max.request.size}, or {@code buffer.memory} when
     * that is less (the producer refuses a record larger than either).
     */
    TopicRules limitedTo(long maxRequestBytes) {
        return new TopicRules(topic, partitions, createTime, maxAhead, maxBehind, compacted, maxRequestBytes);
    }

    /**
     * The record's size as the producer checks it against {@code max.request.size}, or a few bytes more: its key,
     * value and headers uncompressed, and the framing at its largest. A few bytes more refuse a record at the very
     * limit that the producer would send; a few less would let one through that it refuses, breaking a transaction.
     */
    static long framedSize(InputRecord record) {
        long size = FRAMING + (record.key() == null ? 0 : record.key().length)
                + (record.value() == null ? 0 : record.value().length);
        for (org.apache.kafka.common.header.Header h : record.headers()) {
            size += HEADER_FRAMING + h.key().getBytes(java.nio.charset.StandardCharsets.UTF_8).length
                    + (h.value() == null ? 0 : h.value().length);
        }
        return size;
    }

    Optional<BadInputException> refusal(InputRecord record) {
        return refusal(record, System.currentTimeMillis());
    }

    /** Why the topic would refuse {@code record} at {@code nowMillis}, if it would. */
    Optional<BadInputException> refusal(InputRecord record, long nowMillis) {
        Integer p = record.partition();
        if (p != null && p >= partitions) {
            return refused("field \"partition\": the topic has " + partitions + " partition(s), 0 to "
                    + (partitions - 1) + ", not " + p);
        }
        long size = framedSize(record);
        if (size > maxRecordBytes) {
            return refused("the record is " + String.format(java.util.Locale.ROOT, "%,d", size) + " bytes with "
                    + "Kafka's framing, more than the " + String.format(java.util.Locale.ROOT, "%,d", maxRecordBytes)
                    + " one request may carry (max.request.size: the topic's max.message.bytes when that is less "
                    + "than 1 MiB; -X max.request.size for a larger one, up to what the topic takes)");
        }
        if (compacted && record.key() == null) {
            return refused("topic " + topic + " is compacted (cleanup.policy compact) and takes only records with a "
                    + "key; this one has none");
        }
        Long t = record.timestamp();
        if (createTime && t != null) {
            if (t - nowMillis > maxAhead.toMillis()) {
                return refused("timestamp " + t + " (" + Instant.ofEpochMilli(t) + ") is "
                        + Units.duration(Duration.ofMillis(t - nowMillis)) + " ahead of this machine's clock; topic "
                        + topic + " takes timestamps at most " + Units.duration(maxAhead) + " ahead (its "
                        + "message.timestamp.after.max.ms)");
            }
            if (nowMillis - t > maxBehind.toMillis()) {
                return refused("timestamp " + t + " (" + Instant.ofEpochMilli(t) + ") is "
                        + Units.duration(Duration.ofMillis(nowMillis - t)) + " behind this machine's clock; topic "
                        + topic + " takes timestamps at most " + Units.duration(maxBehind) + " old (its "
                        + "message.timestamp.before.max.ms)");
            }
        }
        return Optional.empty();
    }

    private static Optional<BadInputException> refused(String message) {
        return Optional.of(BadInputException.refusedByTopic(message));
    }
}
