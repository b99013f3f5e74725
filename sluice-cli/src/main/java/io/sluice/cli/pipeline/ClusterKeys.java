package io.sluice.cli.pipeline;

import io.sluice.cli.config.ConfigKey;
import io.sluice.cli.config.KeyCatalog;
import io.sluice.cli.config.Problems;
import io.sluice.cli.config.Secret;
import io.sluice.cli.config.Settings;
import io.sluice.cli.config.Types;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.common.config.ConfigDef;

/**
 * The keys of one Kafka cluster's section ({@code source} of a pipeline; {@code source} and {@code target} of a
 * mirror; each {@code input.<name>} and {@code target} of a merge): its brokers, TLS and SASL subsections, and any
 * other client setting. Written once here, so that every cluster section of every file says and checks the same.
 *
 * <p>Immutable.
 *
 * @param client what the section's {@code properties} are checked against (the consumer's or producer's settings)
 * @param owned  client settings the section's {@code properties} may not set, and why (what sets them instead)
 */
public record ClusterKeys(String section, String clientName, ConfigDef client, Map<String, String> owned,
        ConfigKey<List<String>> bootstrapServers, ConfigKey<Boolean> tlsEnabled, ConfigKey<String> truststore,
        ConfigKey<Secret> truststorePassword, ConfigKey<String> keystore, ConfigKey<Secret> keystorePassword,
        ConfigKey<Secret> keyPassword, ConfigKey<Boolean> verifyHostname, ConfigKey<String> saslMechanism,
        ConfigKey<String> saslUsername, ConfigKey<Secret> saslPassword, ConfigKey<Secret> saslJaas,
        ConfigKey<List<Types.Property>> properties) {

    /**
     * @param section    the section's path, e.g. {@code target}
     * @param clientName the kind of client its {@code properties} configure ("consumer", "producer")
     * @param examples   examples of such settings, for the reference
     */
    public static ClusterKeys of(String section, String clientName, ConfigDef client, Map<String, String> owned,
            String examples) {
        String tls = section + ".tls.";
        String sasl = section + ".sasl.";
        return new ClusterKeys(section, clientName, client, Map.copyOf(owned),
                ConfigKey.required(section + ".bootstrap-servers", Types.HOST_PORTS,
                        "The Kafka brokers to connect to first; the client discovers the others from them."),
                ConfigKey.computed(tls + "enabled", Types.BOOLEAN, "true when any other `tls` key is set",
                        "Encrypt the connections to the brokers with TLS (Kafka's `security.protocol` SSL, or "
                                + "SASL_SSL with `sasl`)."),
                ConfigKey.optional(tls + "truststore", Types.STRING,
                        "A truststore (PKCS12, JKS, or PEM by its extension) with the certificate authority that "
                                + "signed the brokers' certificates. Without it, the JDK's default authorities are "
                                + "trusted. A relative path is from the file's folder."),
                ConfigKey.optional(tls + "truststore-password", Types.SECRET, "The truststore's password."),
                ConfigKey.optional(tls + "keystore", Types.STRING,
                        "A keystore with this client's certificate and key, for brokers that authenticate clients "
                                + "by certificate (mutual TLS)."),
                ConfigKey.optional(tls + "keystore-password", Types.SECRET, "The keystore's password."),
                ConfigKey.optional(tls + "key-password", Types.SECRET,
                        "The password of the key in the keystore, when it differs from the keystore's."),
                ConfigKey.withDefault(tls + "verify-hostname", Types.BOOLEAN, "true",
                        "Check that each broker's certificate names the host connected to. Turn it off only for "
                                + "tests."),
                ConfigKey.optional(sasl + "mechanism", Types.oneOf(KafkaSecurity.MECHANISMS),
                        "How to authenticate to the brokers; required when the `sasl` section is present."),
                ConfigKey.optional(sasl + "username", Types.STRING, "The user, for PLAIN and SCRAM."),
                ConfigKey.optional(sasl + "password", Types.SECRET, "The user's password, for PLAIN and SCRAM."),
                ConfigKey.optional(sasl + "jaas-config", Types.SECRET,
                        "A complete JAAS configuration (Kafka's `sasl.jaas.config`) instead of `username` and "
                                + "`password`: for OAUTHBEARER and GSSAPI, or login module options."),
                ConfigKey.optional(section + ".properties", Types.PROPERTIES,
                        "Any other Kafka " + clientName + " setting, under its Kafka name (" + examples + "). Names "
                                + "and values are checked against the Kafka client's own definitions; settings of "
                                + "type password are secrets. Not here: what the keys above set, and what Sluice "
                                + "manages itself (" + String.join(", ", owned.keySet().stream().sorted()
                                        .map(k -> "`" + k + "`").toList()) + ")."));
    }

    /** The section and its tls and sasl subsections, for a {@link KeyCatalog}. */
    public List<KeyCatalog.Section> sections(String description) {
        return List.of(new KeyCatalog.Section(section, description),
                new KeyCatalog.Section(section + ".tls", "TLS to the brokers"),
                new KeyCatalog.Section(section + ".sasl", "SASL authentication to the brokers"));
    }

    /**
     * The client settings this section of {@code s} gives: the brokers, TLS and SASL, and its checked
     * {@code properties}; problems are added to {@code problems} at their place in the file.
     *
     * @param base the file's folder, where relative store paths are from
     */
    public Map<String, Object> clientProperties(Settings s, Path base, Problems problems) {
        Map<String, Object> p = new LinkedHashMap<>();
        try {
            Map<String, Object> security = KafkaSecurity.properties(s, base, this);
            p.putAll(KafkaProperties.check(s.find(properties).orElse(List.of()), security, problems, this));
            p.putAll(security);
        } catch (InvalidSetting e) {
            problems.add(s.at(e.key()), e.getMessage());
        }
        p.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, String.join(",", s.get(bootstrapServers)));
        return p;
    }

    /** The connection keys, in reference order; {@link #properties} apart, as it comes last in a section. */
    public List<ConfigKey<?>> connectionKeys() {
        return List.of(tlsEnabled, truststore, truststorePassword, keystore, keystorePassword, keyPassword,
                verifyHostname, saslMechanism, saslUsername, saslPassword, saslJaas);
    }
}
