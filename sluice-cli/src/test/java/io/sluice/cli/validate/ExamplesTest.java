package io.sluice.cli.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cli.Cli;
import io.sluice.cli.ExitStatus;
import io.sluice.cli.pipeline.StorageBackends;
import io.sluice.local.tls.TlsMaterial;
import io.sluice.testkit.TestDirs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every pipeline in examples/ validates. A storage this build does not have yet is reported as a note (it validates,
 * and {@code run} refuses it), and only for registry entries still pending. {@code VerifyTest} runs the Parquet
 * example.
 */
class ExamplesTest {

    private static final Path EXAMPLES = Path.of("..", "examples").toAbsolutePath().normalize();
    private static TlsMaterial tls;

    @BeforeAll
    static void trustStore() {
        tls = TlsMaterial.generate(TestDirs.newDir("example-tls"));
    }

    static Stream<String> examples() throws IOException {
        try (Stream<Path> files = Files.list(EXAMPLES)) {
            List<String> names = files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".yaml")).sorted()
                    .toList();
            assertTrue(names.size() >= 4, "the examples are there: " + names);
            return names.stream();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("examples")
    void validates(String name) {
        // what the examples leave to the environment without a default: passwords, and a truststore that exists
        Map<String, String> env = Map.of("KAFKA_TRUSTSTORE", tls.trustStore().toString(),
                "KAFKA_TRUSTSTORE_PASSWORD", tls.password(), "KAFKA_PASSWORD", "example-password");
        Path file = EXAMPLES.resolve(name);

        Cli.Result result = Cli.run(env, "validate", file.toString());

        assertEquals(ExitStatus.OK, result.status(), result.err());
        List<String> lines = result.out().lines().toList();
        assertTrue(lines.get(0).startsWith(file + ": valid: "), result.out());
        for (String note : lines.subList(1, lines.size())) {
            assertTrue(note.startsWith("note: " + file + ":"), note);
            boolean pending = StorageBackends.all().stream().anyMatch(b -> !b.available() && note.contains(
                    "sink.location: " + b.scheme() + ":// is not in this build yet"));
            assertTrue(pending, "a note only for what is pending: " + note);
        }
    }
}
