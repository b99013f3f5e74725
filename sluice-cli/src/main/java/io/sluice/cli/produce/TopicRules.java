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
 *
 * <p>Immutable.
 */
record TopicRules(String topic, int partitions, boolean createTime, Duration maxAhead, Duration maxBehind,
        boolean compacted) {

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
