package io.sluice.storage.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.sluice.testkit.SharedHdfs;
import io.sluice.testkit.SharedS3;
import io.sluice.testkit.TestDirs;
import java.nio.file.NoSuchFileException;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Each store gives a visible file's size without its bytes (the audit's check of files without coordinates), and says
 * "no such file" for a staged file, a folder and a name never written, against the real stores.
 */
class FileSizeTest {

    @ParameterizedTest
    @ValueSource(strings = {"local", "s3", "hdfs"})
    void aPublishedFileHasTheSizeWrittenAndWhatIsNotAVisibleFileHasNone(String kind) throws Exception {
        TestStorage where = switch (kind) {
            case "local" -> TestStorage.local(TestDirs.newDir("size"));
            case "s3" -> TestStorage.s3(SharedS3.server());
            default -> TestStorage.hdfs(SharedHdfs.server());
        };
        byte[] data = new byte[6 * 1024 * 1024 + 17]; // past one S3 part
        new Random(7).nextBytes(data);
        try (StorageBackend store = where.open()) {
            PendingFile file = store.create("t/dt=2026-12-03/t+0+0.raw", "_sluice/staging/size/0/");
            file.stream().write(data);
            PendingRef ref = file.finish(); // which closes the stream
            assertThrows(NoSuchFileException.class, () -> store.size(ref.path()), "staged: not visible yet");
            store.publish(ref);
            assertEquals(data.length, store.size("t/dt=2026-12-03/t+0+0.raw"));
            store.writeAtomically("_sluice/manifests/m.json", new byte[] {'{', '}'});
            assertEquals(2, store.size("_sluice/manifests/m.json"));
            assertThrows(NoSuchFileException.class, () -> store.size("t/dt=2026-12-03"), "a folder is no file");
            assertThrows(NoSuchFileException.class, () -> store.size("t/dt=2026-12-03/t+0+9.raw"));
        }
    }
}
