package io.sluice.local.process;

import io.sluice.testkit.child.ChildMain;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The classpath of each kind of server, as Maven resolved it when {@code sluice-testkit-servers} was built. Nothing
 * is downloaded at run time; a missing jar means the local Maven repository was cleaned since the build.
 */
public enum ServerRuntime {
    KAFKA("kafka.classpath"),
    HDFS("hdfs.classpath"),
    S3PROXY("s3proxy.classpath"),
    /** Only the test kit's own child classes: for cheap children in the test kit's own tests. */
    NONE(null);

    /** Log4j 2 configuration for servers that log through it: INFO to standard output, i.e. to their log file. */
    public static final String LOG4J2_CONFIG = "io/sluice/testkit/child/server-log4j2.properties";

    private final String manifest;

    ServerRuntime(String manifest) {
        this.manifest = manifest;
    }

    /** The child classes (watchdog, mains) first, then the server's jars. */
    public List<Path> classpath() {
        List<Path> entries = new ArrayList<>();
        entries.add(childClassesLocation());
        if (manifest == null) {
            return entries;
        }
        try (InputStream in = ChildMain.class.getResourceAsStream(manifest)) {
            if (in == null) {
                throw new IllegalStateException("the test kit has no " + manifest
                        + "; rebuild sluice-testkit-servers (./mvnw install -pl sluice-testkit-servers)");
            }
            for (String entry : new String(in.readAllBytes(), StandardCharsets.UTF_8).trim().split(":")) {
                Path jar = Path.of(entry);
                if (!Files.exists(jar)) {
                    throw new IllegalStateException(jar + " named in " + manifest
                            + " is gone (local Maven repository cleaned?); rebuild with ./mvnw install -DskipTests");
                }
                entries.add(jar);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return entries;
    }

    private static Path childClassesLocation() {
        try {
            return Path.of(ChildMain.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
