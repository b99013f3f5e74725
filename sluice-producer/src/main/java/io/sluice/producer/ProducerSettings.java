package io.sluice.producer;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The properties of a producer that keeps every acknowledged record, once and in order: acks=all (every in-sync
 * replica has a record before it is acknowledged), idempotence on (a retried batch is not written twice, nor after a
 * later one) and at most {@value LossRisk#MAX_ORDERED_IN_FLIGHT} requests in flight. Retries and the delivery timeout
 * are Kafka's defaults (retry until {@code delivery.timeout.ms}, two minutes) unless the caller sets them.
 *
 * <p>The caller's own settings ({@link Builder#set}) that can lose records ({@link LossRisk}) are refused unless it
 * allows loss; allowed ones are logged as a warning and listed by {@link #risks()}.
 *
 * <p>Immutable.
 */
public final class ProducerSettings {

    private static final Logger LOG = LoggerFactory.getLogger(ProducerSettings.class);

    private final Map<String, Object> properties;
    private final List<LossRisk> risks;

    private ProducerSettings(Map<String, Object> properties, List<LossRisk> risks) {
        this.properties = Collections.unmodifiableMap(new HashMap<>(properties)); // values may be null
        this.risks = risks;
    }

    /**
     * Safe settings over {@code connection} (bootstrap servers, security, and whatever else the client was given):
     * its own acks and idempotence are replaced, since a connection's settings are not a decision to lose records.
     */
    public static Builder on(Map<String, ?> connection) {
        return new Builder(connection);
    }

    /** The properties for {@code new KafkaProducer<>(...)}. */
    public Map<String, Object> properties() {
        return properties;
    }

    /** The allowed settings that can lose records; empty unless the caller allowed loss. */
    public List<LossRisk> risks() {
        return risks;
    }

    /** Builder; for one thread. */
    public static final class Builder {
        private final Map<String, Object> connection;
        private final Map<String, Object> defaults = new LinkedHashMap<>();
        private final Map<String, Object> overrides = new LinkedHashMap<>();
        private boolean allowLoss;

        private Builder(Map<String, ?> connection) {
            this.connection = new HashMap<>(connection);
        }

        /** A setting of the caller's: it wins over the connection and the safe settings, and is checked. */
        public Builder set(String key, Object value) {
            overrides.put(key, value);
            return this;
        }

        /** A default that the connection's own value (a user's timeout, say) takes precedence over. */
        public Builder setIfAbsent(String key, Object value) {
            defaults.put(key, value);
            return this;
        }

        /** Accepts settings that can lose records (each is logged); without it they are refused. */
        public Builder allowLoss(boolean allow) {
            this.allowLoss = allow;
            return this;
        }

        /** @throws UnsafeProducerSettingsException if a setting can lose records and loss is not allowed */
        public ProducerSettings build() {
            Map<String, Object> props = new HashMap<>(connection);
            props.put(ProducerConfig.ACKS_CONFIG, "all");
            props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
            props.putIfAbsent(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, LossRisk.MAX_ORDERED_IN_FLIGHT);
            defaults.forEach(props::putIfAbsent);
            props.putAll(overrides);
            List<LossRisk> asked = LossRisk.in(props);
            List<LossRisk> risks = asked;
            if (!asked.isEmpty() && !overrides.containsKey(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG)
                    && asked.stream().noneMatch(r -> r.setting().equals(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG))) {
                // idempotence needs acks=all, retries and at most 5 requests in flight: Kafka refuses to create a
                // producer that asks for it without them, so giving up any of them gives it up too (one more risk,
                // listed when accepted; a refusal names only what the user set)
                props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false);
                risks = new ArrayList<>(asked);
                risks.add(LossRisk.idempotenceGivenUp());
            }
            if (!risks.isEmpty() && !allowLoss) {
                throw new UnsafeProducerSettingsException(asked);
            }
            risks.forEach(r -> LOG.warn("producer setting accepted although it can lose records: {}", r));
            return new ProducerSettings(props, risks);
        }
    }
}
