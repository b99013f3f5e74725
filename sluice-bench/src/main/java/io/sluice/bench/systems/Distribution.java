package io.sluice.bench.systems;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The shipped {@code sluice} command of this checkout: its script and the jar it runs, which {@code bench/run} builds.
 * The systems that measure Sluice as users run it start these, not the benchmark's own classpath.
 */
public final class Distribution {

    private Distribution() {
    }

    /** {@code ./sluice} at the checkout's root. */
    public static Path script() {
        return root().resolve("sluice");
    }

    /** {@code sluice-cli/target/sluice.jar}; fails with what to build when it is missing. */
    public static Path jar() {
        Path jar = root().resolve("sluice-cli/target/sluice.jar");
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("no " + jar + ": build it with ./mvnw -DskipTests package -pl "
                    + "sluice-cli -am (bench/run does)");
        }
        return jar;
    }

    private static Path root() {
        try {
            Path classes = Path.of(Distribution.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return classes.resolve("../../..").normalize();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
