package io.sluice.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import picocli.CommandLine;

/**
 * {@code sluice --version}: Sluice's version, the Kafka client it is built with, and the Java it runs on.
 *
 * <p>Stateless.
 */
public final class Version implements CommandLine.IVersionProvider {

    @Override
    public String[] getVersion() {
        Properties p = properties();
        return new String[] {
            "sluice " + p.getProperty("version"),
            "Kafka clients " + p.getProperty("kafka") + ", Java " + Runtime.version() + " ("
                    + System.getProperty("java.vendor") + ")"
        };
    }

    public static String number() {
        return properties().getProperty("version");
    }

    private static Properties properties() {
        Properties p = new Properties();
        try (InputStream in = Version.class.getResourceAsStream("version.properties")) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return p;
    }
}
