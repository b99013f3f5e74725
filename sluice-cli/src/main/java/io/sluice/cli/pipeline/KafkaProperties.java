package io.sluice.cli.pipeline;

import io.sluice.cli.config.Problems;
import io.sluice.cli.config.Suggestions;
import io.sluice.cli.config.Types;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.types.Password;

/**
 * Checks a cluster section's {@code properties} against the Kafka client's own definitions: the name exists (with "did you
 * mean"), the value parses and passes Kafka's validator, and the setting is not one that Sluice or another key sets.
 * Password-typed settings become {@link Password}s and are never quoted.
 *
 * <p>Stateless.
 */
public final class KafkaProperties {

    /** The classic group protocol's settings, and what takes their place with the consumer protocol. */
    private static final Map<String, String> CLASSIC_GROUP_ONLY = Map.of(
            ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, "the brokers' group.consumer.session.timeout.ms applies",
            ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, "the brokers' group.consumer.heartbeat.interval.ms applies",
            ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG,
            "the brokers assign the partitions (group.remote.assignor names their assignor)");

    private KafkaProperties() {
    }

    /**
     * @param security what the tls and sasl sections set already
     * @return the settings, each a String or a {@link Password}; bad ones are left out and reported
     */
    static Map<String, Object> check(List<Types.Property> properties, Map<String, Object> security, Problems problems,
            ClusterKeys keys) {
        Map<String, ConfigDef.ConfigKey> definitions = keys.client().configKeys();
        Map<String, Object> accepted = new LinkedHashMap<>();
        for (Types.Property p : properties) {
            String where = keys.properties().path() + ": ";
            ConfigDef.ConfigKey definition = definitions.get(p.name());
            if (definition == null) {
                problems.add(p.keyPosition(), where + "'" + p.name() + "' is not a Kafka " + keys.clientName() + " setting"
                        + Suggestions.didYouMean(p.name(), definitions.keySet()));
            } else if (keys.owned().containsKey(p.name())) {
                problems.add(p.keyPosition(), where + "'" + p.name() + "' cannot be set here: " + keys.owned().get(p.name()));
            } else if (security.containsKey(p.name())) {
                problems.add(p.keyPosition(), where + "'" + p.name() + "' is set by the " + keys.section() + ".tls or "
                        + keys.section() + ".sasl section already; keep one of the two");
            } else if (definition.type == ConfigDef.Type.PASSWORD) {
                accepted.put(p.name(), new Password(p.text()));
            } else {
                Optional<String> refused = refusal(p.name(), p.text(), definition);
                if (refused.isPresent()) {
                    problems.add(p.valuePosition(), where + refused.get());
                } else {
                    accepted.put(p.name(), p.text());
                }
            }
        }
        if ("consumer".equals(keys.clientName())) {
            refuseClassicGroupSettings(properties, accepted, keys.properties().path() + ": ", problems);
        }
        return accepted;
    }

    /**
     * Why the client would refuse {@code text} as the value of {@code key}, in Kafka's own words ("Invalid value 2 for
     * configuration acks: ..."); empty when it takes it. Also what {@code -X} flags are checked by
     * ({@code PropertyFlags}).
     */
    public static Optional<String> refusal(String key, String text, ConfigDef.ConfigKey definition) {
        try {
            Object parsed = ConfigDef.parseType(key, text, definition.type);
            if (definition.validator != null) {
                definition.validator.ensureValid(key, parsed);
            }
            return Optional.empty();
        } catch (ConfigException e) {
            return Optional.of(e.getMessage());
        }
    }

    /**
     * With {@code group.protocol: consumer} (KIP-848) the brokers time the group and assign its partitions, and the
     * Kafka consumer refuses the classic protocol's settings when it is made: said here, at the setting, before a run.
     */
    private static void refuseClassicGroupSettings(List<Types.Property> properties, Map<String, Object> accepted,
            String where, Problems problems) {
        Object protocol = accepted.get(ConsumerConfig.GROUP_PROTOCOL_CONFIG);
        if (protocol == null || !"consumer".equalsIgnoreCase(protocol.toString())) {
            return;
        }
        for (Types.Property p : properties) {
            String instead = CLASSIC_GROUP_ONLY.get(p.name());
            if (instead != null && accepted.containsKey(p.name())) {
                problems.add(p.keyPosition(), where + "'" + p.name() + "' cannot be set with group.protocol consumer: "
                        + instead + "; remove it, or use group.protocol classic");
            }
        }
    }
}
