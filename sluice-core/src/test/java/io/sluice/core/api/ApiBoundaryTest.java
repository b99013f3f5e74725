package io.sluice.core.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The engine's API is its public packages ({@code io.sluice.core}, {@code .sink}, {@code .commit}, {@code .wire});
 * {@code io.sluice.core.internal} may change at any time, so no other module of the project may use it, and the test
 * hook {@code io.sluice.core.crash} stays out of the API package. Read from the sources, so that it holds for test
 * code too.
 */
class ApiBoundaryTest {

    private static final Pattern INTERNAL = Pattern.compile("\\bio\\.sluice\\.core\\.internal\\b");

    @Test
    void noOtherModuleUsesTheEngineInternals() throws IOException {
        Path root = Path.of("").toAbsolutePath().getParent();
        List<Path> modules;
        try (Stream<Path> children = Files.list(root)) {
            modules = children.filter(p -> p.getFileName().toString().startsWith("sluice-")
                    && !p.getFileName().toString().equals("sluice-core") && Files.isDirectory(p.resolve("src")))
                    .collect(Collectors.toList());
        }
        assertTrue(modules.size() >= 3, "expected the project's other modules beside sluice-core in " + root);
        List<String> offenders;
        try (Stream<Path> files = modules.stream().flatMap(ApiBoundaryTest::javaFiles)) {
            offenders = files.filter(f -> INTERNAL.matcher(read(f)).find()).map(f -> root.relativize(f).toString())
                    .sorted().collect(Collectors.toList());
        }
        assertEquals(List.of(), offenders, "these files use io.sluice.core.internal; use the public API (or add to it)");
    }

    @Test
    void theApiPackageHoldsNoTestHook() {
        Path api = Path.of("src/main/java/io/sluice/core");
        assertTrue(Files.isDirectory(api.resolve("commit")) && Files.isDirectory(api.resolve("wire")));
        assertTrue(!Files.exists(api.resolve("CrashPoints.java")), "CrashPoints is a test hook: io.sluice.core.crash");
    }

    private static Stream<Path> javaFiles(Path module) {
        try {
            return Files.walk(module.resolve("src")).filter(p -> p.toString().endsWith(".java"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
