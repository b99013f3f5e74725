package io.sluice.cli.quickstart;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class QuickstartFolderTest {

    /**
     * A broker holds the lock of its log folder's {@code .lock} while it runs: a quick start must not replace that
     * folder's data (it did, and the broker died with every topic gone). A {@code .lock} nobody holds (a broker killed
     * with -9 leaves it) does not count.
     */
    @Test
    void aFolderWhoseBrokerRunsIsNotReplaced(@TempDir Path folder) throws Exception {
        assertTrue(QuickstartFolder.prepare(folder).isEmpty(), "a new folder");
        Path data = Files.createDirectories(QuickstartFolder.kafka(folder).resolve("node-1/data"));
        Path topic = Files.createDirectories(data.resolve("clicks-0"));
        Path lock = Files.createFile(data.resolve(".lock"));
        try (FileChannel broker = FileChannel.open(lock, StandardOpenOption.WRITE); var held = broker.lock()) {
            assertTrue(QuickstartFolder.brokerRunning(folder));
            Optional<String> refused = QuickstartFolder.prepare(folder);
            assertTrue(refused.isPresent() && refused.get().contains("a Kafka broker is running on")
                    && refused.get().contains("stop it first"), refused.toString());
            assertTrue(Files.isDirectory(topic), "the running broker's data is kept");
        }
        assertFalse(QuickstartFolder.brokerRunning(folder), "a .lock nobody holds");
        assertTrue(QuickstartFolder.prepare(folder).isEmpty());
        assertFalse(Files.exists(topic), "a stopped broker's folder is replaced, as before");
    }
}
