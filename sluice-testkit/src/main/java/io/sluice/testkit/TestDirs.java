package io.sluice.testkit;

import io.sluice.local.LocalDirs;
import java.nio.file.Path;

/**
 * A fresh folder for a test's files, beside the servers' data in the module's {@code target/test-servers}; the local
 * servers' own folders are {@link LocalDirs}, which this shares its root and naming with.
 *
 * <p>Stateless.
 */
public final class TestDirs {

    private TestDirs() {
    }

    /** A new, empty folder named after {@code prefix}, unique within this JVM and across earlier runs. */
    public static Path newDir(String prefix) {
        return LocalDirs.newDir(prefix);
    }
}
