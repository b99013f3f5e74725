package io.sluice.storage.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.testkit.TestDirs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The local backend's listing, as the audit and the recovery read it. */
class LocalBackendTest {

    /**
     * A folder of the archive linked elsewhere on the same file system is written through by the archive (the file
     * system follows the link): its files are listed as the archive's, and a link back into the archive lists nothing
     * twice.
     */
    @Test
    void filesInALinkedFolderAreListedAndALinkLoopIsListedOnce() throws Exception {
        Path root = TestDirs.newDir("linked-archive");
        Path elsewhere = TestDirs.newDir("elsewhere");
        Files.createDirectories(root.resolve("t"));
        Files.createSymbolicLink(root.resolve("t/dt=2026-12-03"), elsewhere);
        try (LocalBackend store = new LocalBackend(root)) {
            PendingFile file = store.create("t/dt=2026-12-03/t+0+0.jsonl", "_sluice/staging/x/0/");
            file.stream().write(new byte[] {'{', '}', '\n'});
            store.publish(file.finish());
            assertEquals(List.of("t/dt=2026-12-03/t+0+0.jsonl"), store.list("t/"));
            assertEquals(3, Files.size(elsewhere.resolve("t+0+0.jsonl")), "written through the link");

            Files.createSymbolicLink(elsewhere.resolve("loop"), root.resolve("t"));
            assertEquals(List.of("t/dt=2026-12-03/t+0+0.jsonl"), store.list("t/"));
            // a link to a folder of the archive (say, "latest") leads to files listed where they are: not twice
            Files.createSymbolicLink(root.resolve("latest"), root.resolve("t/dt=2026-12-03"));
            Files.createSymbolicLink(root.resolve("t/newest.jsonl"), root.resolve("t/dt=2026-12-03/t+0+0.jsonl"));
            assertEquals(List.of("t/dt=2026-12-03/t+0+0.jsonl"), store.list(""));
            assertEquals(3, store.size("t/dt=2026-12-03/t+0+0.jsonl"));
        }
    }
}
