package io.sluice.core.commit;

import java.time.Duration;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * How long a transaction in the target may stay open. The cluster aborts one open past its producer's
 * {@code transaction.timeout.ms} and fences the producer, so a commit point that keeps each open longer (a long commit
 * interval, records paced further apart) fails its commit at every start, at the same place: a mirror restarted,
 * moved by a commit and was fenced again, without end (a review). Half the timeout is the most, which leaves the commit
 * itself time. The mirror, the merge and {@code sluice produce --exactly-once} refuse a setting past it before they
 * start, each in its own words.
 *
 * <p>Threading: immutable.
 *
 * @param timeout the producers' transaction.timeout.ms
 */
public record TransactionSpan(Duration timeout) {

    /** Kafka's producer default for transaction.timeout.ms. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(1);

    /**
     * The span of the producers configured by {@code producerProperties}: their transaction.timeout.ms, or Kafka's
     * default.
     *
     * @param where how the user names where the setting was given (e.g. "-X", "the target's"), for the refusal of one
     *              that is not a number
     */
    public static TransactionSpan of(Map<String, ?> producerProperties, String where) {
        Object given = producerProperties == null ? null
                : producerProperties.get(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG);
        if (given == null) {
            return new TransactionSpan(DEFAULT_TIMEOUT);
        }
        try {
            return new TransactionSpan(Duration.ofMillis(given instanceof Number n ? n.longValue()
                    : Long.parseLong(given.toString().trim())));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(where + " " + ProducerConfig.TRANSACTION_TIMEOUT_CONFIG
                    + " must be a number of milliseconds, not '" + given + "'");
        }
    }

    /** The longest a transaction may be kept open: half the timeout. */
    public Duration longestOpen() {
        return timeout.dividedBy(2);
    }

    /** Whether a transaction kept open for {@code open} is safe from the cluster's abort. */
    public boolean allows(Duration open) {
        return open.compareTo(longestOpen()) < 0;
    }

    /**
     * The advice that ends a refusal: raise the timeout, within what the brokers allow.
     *
     * @param setting where the user sets it, in their words (e.g. "-X transaction.timeout.ms")
     */
    public String raiseAdvice(String setting) {
        return "raise " + setting + " (now " + timeout.toMillis() + " ms; the brokers allow up to their "
                + "transaction.max.timeout.ms, 15 minutes by default)";
    }
}
