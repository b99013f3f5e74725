package io.sluice.cli.pipeline;

import io.sluice.cli.config.ConfigKey;
import io.sluice.cli.config.Secret;
import io.sluice.cli.config.Settings;
import io.sluice.cli.config.Types;
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
        store(s, base, p, keys, keys.truststore(), keys.truststorePassword(), "ssl.truststore.");
        store(s, base, p, keys, keys.keystore(), keys.keystorePassword(), "ssl.keystore.");
        s.find(keys.keyPassword()).ifPresent(pw -> p.put(SslConfigs.SSL_KEY_PASSWORD_CONFIG, password(pw)));
        p.put(SslConfigs.SSL_ENDPOINT_IDENTIFICATION_ALGORITHM_CONFIG,
                s.get(keys.verifyHostname()) ? "https" : "");
    }

    /** A trust or key store: {@code <prefix>location}, {@code type} (by its extension) and {@code password}. */
    private static void store(Settings s, Path base, Map<String, Object> p, ClusterKeys keys,
            ConfigKey<String> store, ConfigKey<Secret> password, String prefix) {
        s.find(store).ifPresent(name -> {
            Path file = base.resolve(name).toAbsolutePath().normalize();
            InvalidSetting.check(Files.isReadable(file), store, file + " does not exist or cannot be read");
            p.put(prefix + "location", file.toString());
            p.put(prefix + "type", storeType(file));
            // the password may come as a client setting in the section's properties, which the client then uses
            java.util.Optional<Types.Property> asProperty = s.find(keys.properties()).orElse(List.of()).stream()
                    .filter(property -> property.name().equals(prefix + "password")).findFirst();
            if (asProperty.isPresent() && !s.isSet(password)) {
                opens(file, storeType(file), new Secret(asProperty.get().text()), store, keys.properties(),
                        prefix.contains("trust"));
            } else {
                opens(file, storeType(file), s.find(password).orElse(null), store, password, prefix.contains("trust"));
            }
        });
        s.find(password).ifPresent(pw -> p.put(prefix + "password", password(pw)));
        InvalidSetting.check(s.isSet(store) || !s.isSet(password), password, "is set but " + store + " is not");
    }

    /**
     * Opens the store as the Kafka client will, so that a wrong password or a file that is no store is said with its
     * key before any connection: the client's own words came as "unexpected error: Failed to construct kafka consumer",
     * and a PKCS12 truststore read without its password holds no certificate, which the run met as 350 lines of failed
     * handshakes and a timeout (a new user's run). PEM files are the client's to read.
     */
    private static void opens(Path file, String type, Secret password, ConfigKey<String> store,
            ConfigKey<?> passwordKey, boolean trust) {
        if (type.equals("PEM")) {
            return;
        }
        java.security.KeyStore keys;
        try (java.io.InputStream in = Files.newInputStream(file)) {
            keys = java.security.KeyStore.getInstance(type);
            keys.load(in, password == null ? null : password.reveal().toCharArray());
        } catch (java.io.IOException e) {
            boolean wrongPassword = e.getCause() instanceof java.security.UnrecoverableKeyException
                    || String.valueOf(e.getMessage()).contains("password");
            if (wrongPassword && password != null) {
                throw new InvalidSetting(passwordKey, (passwordKey.path().endsWith("properties") ? "its password "
                        : "") + "does not open " + file + " (" + e.getMessage() + ")");
            }
            throw new InvalidSetting(store, file + " cannot be read as a " + type + " store"
                    + (wrongPassword ? " without a password: set " + passwordKey.path() : " (" + e.getMessage()
                    + "); a truststore or keystore is a .p12 (PKCS12), .jks or .pem file"));
        } catch (java.security.GeneralSecurityException e) {
            throw new InvalidSetting(store, file + " cannot be read as a " + type + " store (" + e.getMessage() + ")");
        }
        if (trust && certificates(keys) == 0) {
            throw new InvalidSetting(store, file + " holds no certificate that can be read"
                    + (password == null ? " without its password: set " + passwordKey.path()
                    + " (a PKCS12 file's certificates are read with it)" : ": a truststore holds the certificate of the "
                    + "authority that signed the brokers' certificates"));
        }
    }

    private static int certificates(java.security.KeyStore keys) {
        try {
            int count = 0;
            for (var aliases = keys.aliases(); aliases.hasMoreElements();) {
                if (keys.getCertificate(aliases.nextElement()) != null) {
                    count++;
                }
            }
            return count;
        } catch (java.security.KeyStoreException e) {
            return 0;
        }
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
