package io.sluice.cli.pipeline;

import io.sluice.cli.config.ConfigKey;
import io.sluice.cli.config.Secret;
import io.sluice.cli.config.Settings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.config.SslConfigs;
import org.apache.kafka.common.config.types.Password;

/**
 * Turns a cluster section's {@code tls} and {@code sasl} subsections into Kafka client settings: the security protocol,
 * trust and key stores, and a JAAS configuration built from a user name and password. Passwords become Kafka
 * {@link Password}s, which print as {@code [hidden]} in the client's own configuration log.
 *
 * <p>Stateless.
 */
final class KafkaSecurity {

    static final List<String> MECHANISMS = List.of("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512", "OAUTHBEARER", "GSSAPI");

    private KafkaSecurity() {
    }

    /** The client settings the sections ask for; empty when neither is used. */
    static Map<String, Object> properties(Settings s, Path base, ClusterKeys keys) {
        Map<String, Object> p = new LinkedHashMap<>();
        boolean tls = s.find(keys.tlsEnabled()).orElse(s.hasSection(keys.section() + ".tls"));
        boolean sasl = s.hasSection(keys.section() + ".sasl");
        if (!tls && !sasl) {
            return p;
        }
        p.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, (sasl ? "SASL_" : "") + (tls ? "SSL" : "PLAINTEXT"));
        if (tls) {
            tls(s, base, p, keys);
        }
        if (sasl) {
            sasl(s, p, keys);
        }
        return p;
    }

    private static void tls(Settings s, Path base, Map<String, Object> p, ClusterKeys keys) {
        store(s, base, p, keys.truststore(), keys.truststorePassword(), "ssl.truststore.");
        store(s, base, p, keys.keystore(), keys.keystorePassword(), "ssl.keystore.");
        s.find(keys.keyPassword()).ifPresent(pw -> p.put(SslConfigs.SSL_KEY_PASSWORD_CONFIG, password(pw)));
        p.put(SslConfigs.SSL_ENDPOINT_IDENTIFICATION_ALGORITHM_CONFIG,
                s.get(keys.verifyHostname()) ? "https" : "");
    }

    /** A trust or key store: {@code <prefix>location}, {@code type} (by its extension) and {@code password}. */
    private static void store(Settings s, Path base, Map<String, Object> p, ConfigKey<String> store,
            ConfigKey<Secret> password, String prefix) {
        s.find(store).ifPresent(name -> {
            Path file = base.resolve(name).toAbsolutePath().normalize();
            InvalidSetting.check(Files.isReadable(file), store, file + " does not exist or cannot be read");
            p.put(prefix + "location", file.toString());
            p.put(prefix + "type", storeType(file));
        });
        s.find(password).ifPresent(pw -> p.put(prefix + "password", password(pw)));
        InvalidSetting.check(s.isSet(store) || !s.isSet(password), password, "is set but " + store + " is not");
    }

    private static void sasl(Settings s, Map<String, Object> p, ClusterKeys keys) {
        String mechanism = s.find(keys.saslMechanism()).orElseThrow(() -> new InvalidSetting(
                keys.saslMechanism(), "is required with the sasl section: one of " + String.join(", ", MECHANISMS)));
        p.put(SaslConfigs.SASL_MECHANISM, mechanism);
        boolean userPassword = s.isSet(keys.saslUsername()) || s.isSet(keys.saslPassword());
        if (s.isSet(keys.saslJaas())) {
            InvalidSetting.check(!userPassword, keys.saslJaas(),
                    "give either jaas-config or username and password, not both");
            p.put(SaslConfigs.SASL_JAAS_CONFIG, password(s.get(keys.saslJaas())));
            return;
        }
        String module = switch (mechanism) {
            case "PLAIN" -> "org.apache.kafka.common.security.plain.PlainLoginModule";
            case "SCRAM-SHA-256", "SCRAM-SHA-512" -> "org.apache.kafka.common.security.scram.ScramLoginModule";
            default -> throw new InvalidSetting(keys.saslMechanism(),
                    mechanism + " needs " + keys.saslJaas().path() + " (username and password are for PLAIN and SCRAM)");
        };
        InvalidSetting.check(s.isSet(keys.saslUsername()), keys.saslUsername(),
                "is required for " + mechanism + " (or give jaas-config)");
        InvalidSetting.check(s.isSet(keys.saslPassword()), keys.saslPassword(),
                "is required for " + mechanism + " (or give jaas-config)");
        p.put(SaslConfigs.SASL_JAAS_CONFIG, new Password(module + " required username=\""
                + quote(s.get(keys.saslUsername())) + "\" password=\""
                + quote(s.get(keys.saslPassword()).reveal()) + "\";"));
    }

    private static String storeType(Path file) {
        String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
        if (name.endsWith(".jks")) {
            return "JKS";
        }
        if (name.endsWith(".pem") || name.endsWith(".crt")) {
            return "PEM";
        }
        return "PKCS12";
    }

    private static Password password(Secret secret) {
        return new Password(secret.reveal());
    }

    private static String quote(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"");
    }
}
