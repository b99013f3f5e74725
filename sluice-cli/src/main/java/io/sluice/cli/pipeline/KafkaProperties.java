package io.sluice.cli.pipeline;

import io.sluice.cli.config.Problems;
import io.sluice.cli.config.Suggestions;
import io.sluice.cli.config.Types;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.types.Password;

/**
 * Checks {@code source.properties} against the Kafka consumer's own definitions: the name exists (with "did you
 * mean"), the value parses and passes Kafka's validator, and the setting is not one that Sluice or another key sets.
 * Password-typed settings become {@link Password}s and are never quoted.
 *
 * <p>Stateless.
 */
final class KafkaProperties {

    private static final Map<String, String> OWNED = Map.of(
            ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, "set it with source.bootstrap-servers",
            ConsumerConfig.GROUP_ID_CONFIG, "set it with source.group",
            ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "Sluice commits offsets itself, after the files are safe",
            ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "use source.start and source.on-offset-out-of-range",
            ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, "an archive stores the bytes as they are",
            ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, "an archive stores the bytes as they are");

    private KafkaProperties() {
    }

    /**
     * @param security what the tls and sasl sections set already
     * @return the settings, each a String or a {@link Password}; bad ones are left out and reported
     */
    static Map<String, Object> check(List<Types.Property> properties, Map<String, Object> security, Problems problems) {
        Map<String, ConfigDef.ConfigKey> definitions = ConsumerConfig.configDef().configKeys();
        Map<String, Object> accepted = new LinkedHashMap<>();
        for (Types.Property p : properties) {
            String where = PipelineKeys.KAFKA_PROPERTIES.path() + ": ";
            ConfigDef.ConfigKey definition = definitions.get(p.name());
            if (definition == null) {
                problems.add(p.keyPosition(), where + "'" + p.name() + "' is not a Kafka consumer setting"
                        + Suggestions.didYouMean(p.name(), definitions.keySet()));
            } else if (OWNED.containsKey(p.name())) {
                problems.add(p.keyPosition(), where + "'" + p.name() + "' cannot be set here: " + OWNED.get(p.name()));
            } else if (security.containsKey(p.name())) {
                problems.add(p.keyPosition(), where + "'" + p.name() + "' is set by the source.tls or source.sasl "
                        + "section already; keep one of the two");
            } else if (definition.type == ConfigDef.Type.PASSWORD) {
                accepted.put(p.name(), new Password(p.text()));
            } else {
                try {
                    Object parsed = ConfigDef.parseType(p.name(), p.text(), definition.type);
                    if (definition.validator != null) {
                        definition.validator.ensureValid(p.name(), parsed);
                    }
                    accepted.put(p.name(), p.text());
                } catch (ConfigException e) {
                    problems.add(p.valuePosition(), where + e.getMessage());
                }
            }
        }
        return accepted;
    }
}
