package io.sluice.cli.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cli.Cli;
import io.sluice.cli.ExitStatus;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code sluice validate} on broken pipeline files, one kind of mistake each: every file says, in {@code # expect:}
 * lines, the exact messages and positions validate must print (and in {@code # env:} lines the variables it runs
 * with).
 */
class BrokenPipelinesTest {

    private static final Path DIR = Path.of("src/test/resources/broken").toAbsolutePath();

    static Stream<String> files() throws IOException {
        try (Stream<Path> files = Files.list(DIR)) {
            List<String> names = files.map(f -> f.getFileName().toString()).filter(n -> n.endsWith(".yaml")).sorted()
                    .toList();
            assertTrue(names.size() >= 30, "the broken files are there: " + names);
            return names.stream();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("files")
    void validateReportsTheMistakeWithItsPositionAndExitsWithStatusTwo(String name) throws IOException {
        Path file = DIR.resolve(name);
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        List<String> expected = lines.stream().filter(l -> l.startsWith("# expect: ")).map(l -> l.substring(10))
                .toList();
        Map<String, String> env = new HashMap<>();
        lines.stream().filter(l -> l.startsWith("# env: ")).map(l -> l.substring(7).split("=", 2))
                .forEach(kv -> env.put(kv[0], kv[1]));
        assertFalse(expected.isEmpty(), name + " says what to expect");

        Cli.Result result = Cli.run(env, "validate", file.toString());

        assertEquals(expected, result.err().lines().map(l -> l.replace(DIR + "/", "")).toList());
        assertEquals(ExitStatus.USAGE, result.status());
        assertEquals("", result.out(), "nothing on standard output for an invalid file");
    }
}
