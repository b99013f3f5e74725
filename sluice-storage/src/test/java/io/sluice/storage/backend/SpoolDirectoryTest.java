package io.sluice.storage.backend;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a starting spool removes of its siblings: what crashed runs left, never what another backend is making. A lock
 * file under its temporary name may belong to a backend between creating it and locking it; removing it failed that
 * backend's start ("cannot spool S3 parts ... .lock.new -> .lock"), seen once in CI with two archivers started at once.
 */
class SpoolDirectoryTest {

    @TempDir
    Path dir;

    @Test
    void aLockFileUnderItsTemporaryNameIsAnotherBackendStartingAndStays() throws Exception {
        Path starting = Files.createFile(dir.resolve(UUID.randomUUID() + ".lock.new"));

        try (SpoolDirectory spool = SpoolDirectory.open(dir)) {
            assertTrue(Files.exists(starting), "not locked yet, but not left behind either");
        }
    }

    @Test
    void oneAnHourOldWasLeftByAStartThatFailedAndGoes() throws Exception {
        Path failed = Files.createFile(dir.resolve(UUID.randomUUID() + ".lock.new"));
        Files.setLastModifiedTime(failed, FileTime.from(Instant.now().minus(Duration.ofMinutes(61))));

        try (SpoolDirectory spool = SpoolDirectory.open(dir)) {
            assertFalse(Files.exists(failed));
        }
    }

    @Test
    void aFolderWhoseLockNobodyHoldsWasLeftByACrashAndGoes() throws Exception {
        String id = UUID.randomUUID().toString();
        Path folder = Files.createDirectory(dir.resolve(id));
        Files.writeString(folder.resolve("a.part"), "spooled");
        Path lock = Files.createFile(dir.resolve(id + ".lock"));

        try (SpoolDirectory spool = SpoolDirectory.open(dir)) {
            assertFalse(Files.exists(folder));
            assertFalse(Files.exists(lock));
        }
    }
}
