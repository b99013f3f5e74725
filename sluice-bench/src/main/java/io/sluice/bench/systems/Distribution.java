package io.sluice.bench.systems;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

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

    /**
     * The script's environment for a benchmark: this JVM's JDK, the jar as the benchmark built it (a source changed
     * during a run must not rebuild the jar under its JVMs), and {@code javaOptions} as {@code SLUICE_JAVA_OPTS}.
     * Checks that the jar is there.
     */
    public static Map<String, String> environment(String javaOptions) {
        jar();
        return Map.of("JAVA_HOME", System.getProperty("java.home"), "SLUICE_NO_BUILD", "1",
                "SLUICE_JAVA_OPTS", javaOptions.trim());
    }

    /**
     * Makes sure the script's class-data archive exists before a measured start: a user's first start after a build
     * makes it once (a training run of a few seconds), and every start after maps it, so a benchmark that measured
     * the first start would measure the build's one-time cost.
     */
    public static void prepare() {
        try {
            ProcessBuilder builder = new ProcessBuilder(script().toString(), "--version")
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
            builder.environment().putAll(environment(""));
            int status = builder.start().waitFor();
            if (status != 0) {
                throw new IllegalStateException(script() + " --version exited with status " + status);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while preparing the sluice command", e);
        }
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
