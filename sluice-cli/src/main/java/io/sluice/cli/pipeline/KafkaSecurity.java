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
 * Turns the {@code source.tls} and {@code source.sasl} sections into Kafka client settings: the security protocol,
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
    static Map<String, Object> properties(Settings s, Path base) {
        Map<String, Object> p = new LinkedHashMap<>();
        boolean tls = s.find(PipelineKeys.TLS_ENABLED).orElse(s.hasSection("source.tls"));
        boolean sasl = s.hasSection("source.sasl");
        if (!tls && !sasl) {
            return p;
        }
        p.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, (sasl ? "SASL_" : "") + (tls ? "SSL" : "PLAINTEXT"));
        if (tls) {
            tls(s, base, p);
        }
        if (sasl) {
            sasl(s, p);
        }
        return p;
    }

    private static void tls(Settings s, Path base, Map<String, Object> p) {
        store(s, base, p, PipelineKeys.TRUSTSTORE, PipelineKeys.TRUSTSTORE_PASSWORD, "ssl.truststore.");
        store(s, base, p, PipelineKeys.KEYSTORE, PipelineKeys.KEYSTORE_PASSWORD, "ssl.keystore.");
        s.find(PipelineKeys.KEY_PASSWORD).ifPresent(pw -> p.put(SslConfigs.SSL_KEY_PASSWORD_CONFIG, password(pw)));
        p.put(SslConfigs.SSL_ENDPOINT_IDENTIFICATION_ALGORITHM_CONFIG,
                s.get(PipelineKeys.VERIFY_HOSTNAME) ? "https" : "");
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

    private static void sasl(Settings s, Map<String, Object> p) {
        String mechanism = s.find(PipelineKeys.SASL_MECHANISM).orElseThrow(() -> new InvalidSetting(
                PipelineKeys.SASL_MECHANISM, "is required with the sasl section: one of " + String.join(", ", MECHANISMS)));
        p.put(SaslConfigs.SASL_MECHANISM, mechanism);
        boolean userPassword = s.isSet(PipelineKeys.SASL_USERNAME) || s.isSet(PipelineKeys.SASL_PASSWORD);
        if (s.isSet(PipelineKeys.SASL_JAAS)) {
            InvalidSetting.check(!userPassword, PipelineKeys.SASL_JAAS,
                    "give either jaas-config or username and password, not both");
            p.put(SaslConfigs.SASL_JAAS_CONFIG, password(s.get(PipelineKeys.SASL_JAAS)));
            return;
        }
        String module = switch (mechanism) {
            case "PLAIN" -> "org.apache.kafka.common.security.plain.PlainLoginModule";
            case "SCRAM-SHA-256", "SCRAM-SHA-512" -> "org.apache.kafka.common.security.scram.ScramLoginModule";
            default -> throw new InvalidSetting(PipelineKeys.SASL_MECHANISM,
                    mechanism + " needs source.sasl.jaas-config (username and password are for PLAIN and SCRAM)");
        };
        InvalidSetting.check(s.isSet(PipelineKeys.SASL_USERNAME), PipelineKeys.SASL_USERNAME,
                "is required for " + mechanism + " (or give jaas-config)");
        InvalidSetting.check(s.isSet(PipelineKeys.SASL_PASSWORD), PipelineKeys.SASL_PASSWORD,
                "is required for " + mechanism + " (or give jaas-config)");
        p.put(SaslConfigs.SASL_JAAS_CONFIG, new Password(module + " required username=\""
                + quote(s.get(PipelineKeys.SASL_USERNAME)) + "\" password=\""
                + quote(s.get(PipelineKeys.SASL_PASSWORD).reveal()) + "\";"));
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
