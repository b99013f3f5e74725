package io.sluice.storage.backend;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testkit.Names;
import io.sluice.testkit.SharedHdfs;
import io.sluice.testkit.TestDirs;
import io.sluice.testkit.hdfs.HdfsServer;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The HDFS backend against a real HDFS (MiniDFSCluster in a child JVM). */
@Tag("slow")
class HdfsBackendTest {

    private static final String STAGING = "_sluice/staging/id/0/";
    private final HdfsServer hdfs = SharedHdfs.server();
    private final String root = "/" + Names.unique("hdfs-backend");

    @Test
    void aFileIsATemporaryFileUntilPublishedAndPublishingTwiceIsHarmless() throws Exception {
        byte[] data = new byte[3 * 1024 * 1024 + 99];
        new Random(3).nextBytes(data);
        try (HdfsBackend backend = backend()) {
            PendingFile file = backend.create("t/dt=2026-11-21/t+0+0.jsonl.zst", STAGING);
            OutputStream out = file.stream(); // the backend's stream: finish() closes it
            out.write(data);
            PendingRef ref = file.finish();
            assertTrue(ref.staging().startsWith(STAGING), ref.staging());
            assertTrue(backend.list("t/").isEmpty(), "invisible before publishing");
            assertEquals(List.of(ref), backend.listStaged(STAGING));

            backend.publish(ref);
            backend.publish(ref); // recovery may publish what was published before a crash
            assertEquals(List.of("t/dt=2026-11-21/t+0+0.jsonl.zst"), backend.list("t/"));
            assertTrue(backend.listStaged(STAGING).isEmpty(), "the temporary file is gone");
            java.nio.file.Path local = TestDirs.newDir("hdfs-download").resolve("f");
            backend.download(ref.path(), local);
            assertArrayEquals(data, Files.readAllBytes(local));
            assertThrows(NoSuchFileException.class, () -> backend.download("t/missing", local));

            // a manifest naming a file that is neither staged nor published is an error, not a silent skip
            IOException gone = assertThrows(IOException.class, () -> backend.publish(
                    new PendingRef("t/other.jsonl", STAGING + "0000~t~other.jsonl")));
            assertTrue(gone.getMessage().contains("is gone"), gone.getMessage());
        }
    }

    @Test
    void aDiscardedFileNeverAppearsAndSmallFilesAreReplacedWhole() throws Exception {
        try (HdfsBackend backend = backend()) {
            PendingFile file = backend.create("t/x.jsonl", STAGING);
            file.stream().write("{}\n".getBytes(StandardCharsets.UTF_8));
            PendingRef ref = file.finish();
            backend.discard(ref);
            backend.discard(ref);
            assertTrue(backend.list("").isEmpty(), "nothing at all left: " + backend.list(""));

            PendingFile aborted = backend.create("t/y.jsonl", STAGING);
            aborted.stream().write("{}\n".getBytes(StandardCharsets.UTF_8));
            aborted.abort();
            assertTrue(backend.listStaged(STAGING).isEmpty(), "an aborted file is removed");

            String manifest = "_sluice/manifests/id/0/00000000000000000042.json";
            backend.writeAtomically(manifest, "{\"a\":1}".getBytes(StandardCharsets.UTF_8));
            backend.writeAtomically(manifest, "{\"a\":2}".getBytes(StandardCharsets.UTF_8));
            assertEquals("{\"a\":2}", new String(backend.read(manifest).orElseThrow(), StandardCharsets.UTF_8));
            assertEquals(List.of(manifest), backend.list("_sluice/manifests/"), "no temporary file left beside it");
            assertTrue(backend.read("_sluice/manifests/id/0/missing.json").isEmpty());
        }
    }

    /**
     * A writer that stopped with its file open (killed, or a zombie frozen mid-write) holds the HDFS lease: the
     * backend recovers the lease before publishing or discarding, the file is closed with what reached the DataNodes,
     * and the old writer cannot write to it any more.
     */
    @Test
    void filesAnotherWriterLeftOpenAreRecoveredBeforeTheyArePublishedAndDeletedOpenWhenDiscarded() throws Exception {
        try (HdfsBackend backend = backend(); FileSystem other = otherClient()) {
            Path base = new Path(root + "/" + STAGING);
            List<String> paths = List.of("t/published.jsonl", "t/discarded-1.jsonl", "t/discarded-2.jsonl");
            List<PendingRef> refs = new java.util.ArrayList<>();
            List<FSDataOutputStream> writers = new java.util.ArrayList<>();
            for (String path : paths) {
                String name = StagedName.of(path);
                FSDataOutputStream out = other.create(new Path(base, name), false);
                out.write(("{\"path\":\"" + path + "\"}\n").getBytes(StandardCharsets.UTF_8));
                out.hsync(); // a block on the DataNode, being written: only lease recovery closes it
                writers.add(out);
                refs.add(new PendingRef(path, STAGING + name));
            }
            assertFalse(((DistributedFileSystem) other).isFileClosed(new Path(base, refs.get(0).staging()
                    .substring(STAGING.length()))), "still open");

            long start = System.nanoTime();
            backend.publish(refs.get(0));
            long published = System.nanoTime();
            backend.discardAll(refs.subList(1, 3));
            System.out.printf("[hdfs-backend] lease recovered for one file in %d ms; two open files discarded in %d "
                    + "ms%n", (published - start) / 1_000_000, (System.nanoTime() - published) / 1_000_000);

            assertEquals(List.of("t/published.jsonl"), backend.list("t/"));
            assertEquals("{\"path\":\"t/published.jsonl\"}\n", new String(backend.read("t/published.jsonl")
                    .orElseThrow(), StandardCharsets.UTF_8), "what the old writer had synced");
            assertTrue(backend.listStaged(STAGING).isEmpty());
            assertThrows(IOException.class, () -> {
                writers.get(0).write("{\"late\":1}\n".getBytes(StandardCharsets.UTF_8));
                writers.get(0).hsync();
            }, "the published file's old writer lost its lease");
            for (FSDataOutputStream late : writers.subList(1, 3)) {
                // a discarded file was deleted open, without waiting for its lease: the old writer's packets may
                // still reach a DataNode, but its file never comes back and its close fails
                assertThrows(IOException.class, () -> {
                    late.write("{\"late\":1}\n".getBytes(StandardCharsets.UTF_8));
                    late.close();
                }, "a deleted file cannot be completed");
            }
            assertTrue(backend.listStaged(STAGING).isEmpty(), "nothing a late writer did brings a file back");
            assertEquals(List.of("t/published.jsonl"), backend.list("t/"));
        }
    }

    /**
     * A small file HDFS refuses mid-write (the folder's space quota), or refuses to rename into place, leaves no
     * temporary file beside the target, and the old file stands; the refusal is not taken for an outage.
     */
    @Test
    void aSmallFileRefusedLeavesTheOldFileAndNoTemporaryOne() throws Exception {
        String manifest = "_sluice/manifests/id/0/00000000000000000042.json";
        try (HdfsBackend backend = backend(); FileSystem other = otherClient()) {
            backend.writeAtomically(manifest, "{\"a\":1}".getBytes(StandardCharsets.UTF_8));
            Path folder = new Path(root + "/_sluice/manifests/id/0");
            // a block is reserved whole as it is allocated: a kilobyte's quota refuses the first byte's block
            ((DistributedFileSystem) other).setQuota(folder, HdfsConstants.QUOTA_DONT_SET, 1024);
            IOException refused = assertThrows(IOException.class,
                    () -> backend.writeAtomically(manifest, "{\"a\":2}".getBytes(StandardCharsets.UTF_8)));
            assertTrue(backend.outage(refused).isEmpty(), "a refusal, not an outage: " + refused);
            assertEquals(List.of(manifest), backend.list("_sluice/manifests/"), "no temporary file left beside it");
            assertEquals("{\"a\":1}", new String(backend.read(manifest).orElseThrow(), StandardCharsets.UTF_8));

            // written and closed, and the rename refused (a folder stands where the file goes): the same
            String blocked = "_sluice/owners/t/marker";
            other.mkdirs(new Path(root + "/" + blocked + "/inside"));
            other.create(new Path(root + "/" + blocked + "/inside/f")).close();
            IOException notRenamed = assertThrows(IOException.class,
                    () -> backend.writeAtomically(blocked, "g".getBytes(StandardCharsets.UTF_8)));
            assertTrue(backend.outage(notRenamed).isEmpty(), "a refusal, not an outage: " + notRenamed);
            assertEquals(List.of(blocked + "/inside/f"), backend.list("_sluice/owners/"), "no temporary file");
        }
    }

    @Test
    void theConfigurationIsCheckedAndPathsStayInsideTheRoot() throws Exception {
        assertThrows(IllegalArgumentException.class, () -> HdfsConfig.builder(hdfs.uri()).root("archive").build());
        assertThrows(IllegalArgumentException.class, () -> HdfsConfig.builder(java.net.URI.create("/no/scheme"))
                .build());
        try (HdfsBackend backend = backend()) {
            assertThrows(IllegalArgumentException.class, () -> backend.read("../elsewhere/secret"));
            assertTrue(backend.describe().startsWith(hdfs.uri() + root), backend.describe());
        }
    }

    private HdfsBackend backend() throws IOException {
        return new HdfsBackend(HdfsConfig.builder(hdfs.uri()).root(root).property("dfs.replication", "1").build());
    }

    /** A second HDFS client, with a lease of its own: another process as far as the NameNode can tell. */
    private FileSystem otherClient() throws IOException {
        Configuration conf = new Configuration();
        conf.set("dfs.replication", "1");
        return FileSystem.newInstance(hdfs.uri(), conf);
    }
}
