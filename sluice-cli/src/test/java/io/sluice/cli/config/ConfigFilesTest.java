package io.sluice.cli.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testkit.TestDirs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A file given as a pipe ({@code cat p.yaml | sluice validate /dev/stdin}) can be read once, and a command reads its
 * file twice (its kind, then its settings): the second reading found it empty (a new user's run).
 */
class ConfigFilesTest {

    @Test
    void aPipeIsReadOnceForEveryReadingOfIt() throws Exception {
        Path pipe = TestDirs.newDir("config-pipe").resolve("p.yaml");
        assertEquals(0, new ProcessBuilder("mkfifo", pipe.toString()).start().waitFor(), "mkfifo");
        String text = "merge:\n  name: m\n";
        Thread writer = new Thread(() -> {
            try {
                Files.writeString(pipe, text);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        writer.start();
        // a second reading of the pipe itself would wait for a writer for ever
        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
            assertTrue(ConfigFiles.hasTopLevelSection(pipe, "merge"));
            assertEquals(text, ConfigFiles.read(pipe));
        });
        writer.join(10_000);
    }
}
