package io.sluice.producer;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * A producer setting that can lose, duplicate or reorder records, and what it costs. {@link #in} finds them in a
 * producer's properties; {@link ProducerSettings} refuses them unless the caller allows loss.
 *
 * @param setting     the producer property, e.g. {@code acks}
 * @param value       its value as given
 * @param consequence what can happen to records because of it
 */
public record LossRisk(String setting, String value, String consequence) {

    /** The most requests in flight for which an idempotent producer keeps order (Kafka refuses more with it on). */
    public static final int MAX_ORDERED_IN_FLIGHT = 5;

    /** The risky settings among {@code properties}, in a fixed order (acks, retries, idempotence, in flight). */
    public static List<LossRisk> in(Map<String, ?> properties) {
        List<LossRisk> risks = new ArrayList<>();
        String acks = text(properties.get(ProducerConfig.ACKS_CONFIG));
        if ("0".equals(acks)) {
            risks.add(new LossRisk(ProducerConfig.ACKS_CONFIG, acks,
                    "the producer does not wait for the broker, so a record can be lost without any error"));
        } else if ("1".equals(acks)) {
            risks.add(new LossRisk(ProducerConfig.ACKS_CONFIG, acks, "only the leader has a record when it is "
                    + "acknowledged, so it is lost if the leader fails before a follower copies it"));
        }
        String retries = text(properties.get(ProducerConfig.RETRIES_CONFIG));
        if ("0".equals(retries)) {
            risks.add(new LossRisk(ProducerConfig.RETRIES_CONFIG, retries, "a send that meets a passing error (a "
                    + "leader change, a timeout) fails instead of being retried"));
        }
        String idempotence = text(properties.get(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG));
        if ("false".equals(idempotence)) {
            risks.add(new LossRisk(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, idempotence, "a retried batch can be "
                    + "written twice and, with more than one request in flight, after a later batch"));
        }
        String inFlight = text(properties.get(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION));
        if (inFlight != null && isNumberAbove(inFlight, MAX_ORDERED_IN_FLIGHT)) {
            risks.add(new LossRisk(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, inFlight, "with more than "
                    + MAX_ORDERED_IN_FLIGHT + " requests in flight a retried batch can land after a later one"));
        }
        return List.copyOf(risks);
    }

    /** Idempotence given up because another setting here rules it out, as Kafka requires. */
    static LossRisk idempotenceGivenUp() {
        return new LossRisk(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "false", "turned off by the settings above, "
                + "since Kafka's idempotence needs acks=all, retries and at most " + MAX_ORDERED_IN_FLIGHT
                + " requests in flight: a retried batch can be written twice");
    }

    @Override
    public String toString() {
        return setting + "=" + value + " (" + consequence + ")";
    }

    private static String text(Object value) {
        return value == null ? null : value.toString().trim().toLowerCase(Locale.ROOT);
    }

    private static boolean isNumberAbove(String text, int limit) {
        try {
            return Integer.parseInt(text) > limit;
        } catch (NumberFormatException e) {
            return false; // not a number: Kafka itself rejects it when the producer is created
        }
    }
}
