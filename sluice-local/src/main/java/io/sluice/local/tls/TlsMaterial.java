package io.sluice.local.tls;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A self-signed server certificate for {@code localhost} / {@code 127.0.0.1} in a PKCS12 key store, and a trust
 * store that trusts exactly it, generated at test time with the JDK's own {@code keytool}. Hostname verification
 * stays on in clients and passes thanks to the subject alternative names.
 */
public final class TlsMaterial {

    private final Path keyStore;
    private final Path trustStore;
    private final String password;

    private TlsMaterial(Path keyStore, Path trustStore, String password) {
        this.keyStore = keyStore;
        this.trustStore = trustStore;
        this.password = password;
    }

    /** Generates a new key pair, certificate, key store and trust store in {@code dir}. */
    public static TlsMaterial generate(Path dir) {
        String password = "sluice-test-" + Long.toHexString(System.nanoTime());
        Path keyStore = dir.resolve("server.p12");
        Path cert = dir.resolve("server.crt");
        Path trustStore = dir.resolve("truststore.p12");
        try {
            Files.createDirectories(dir);
            keytool("-genkeypair", "-alias", "server", "-keyalg", "RSA", "-keysize", "2048", "-validity", "3650",
                    "-dname", "CN=localhost", "-ext", "SAN=dns:localhost,ip:127.0.0.1",
                    "-keystore", keyStore.toString(), "-storetype", "PKCS12",
                    "-storepass", password, "-keypass", password);
            keytool("-exportcert", "-alias", "server", "-keystore", keyStore.toString(), "-storetype", "PKCS12",
                    "-storepass", password, "-rfc", "-file", cert.toString());
            keytool("-importcert", "-noprompt", "-alias", "server", "-file", cert.toString(),
                    "-keystore", trustStore.toString(), "-storetype", "PKCS12", "-storepass", password);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot generate TLS material in " + dir, e);
        }
        return new TlsMaterial(keyStore, trustStore, password);
    }

    public Path keyStore() {
        return keyStore;
    }

    public Path trustStore() {
        return trustStore;
    }

    public String password() {
        return password;
    }

    /** Kafka client settings that trust this certificate (the caller sets {@code security.protocol}). */
    public Map<String, Object> clientProperties() {
        return Map.of(
                "ssl.truststore.location", trustStore.toString(),
                "ssl.truststore.type", "PKCS12",
                "ssl.truststore.password", password);
    }

    private static void keytool(String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (process.waitFor() != 0) {
                throw new IOException("keytool " + args[0] + " failed: " + output);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while running keytool", e);
        }
    }
}
