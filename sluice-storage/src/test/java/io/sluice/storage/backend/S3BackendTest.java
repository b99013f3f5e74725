package io.sluice.storage.backend;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testkit.SharedS3;
import io.sluice.testkit.TestDirs;
import io.sluice.testkit.s3.S3Server;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.ResponseTransformer;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.Part;

/** The S3 backend against a real S3 API server (s3proxy). */
class S3BackendTest {

    private final S3Server server = SharedS3.server();

    @Test
    void aFileIsAnIncompleteUploadOfFiveMebibytePartsUntilPublishedAndPublishingTwiceIsHarmless() throws Exception {
        String bucket = server.createBucket("backend");
        byte[] data = new byte[12 * 1024 * 1024 + 321];
        new Random(5).nextBytes(data);
        try (S3Backend backend = backend(bucket); S3Client client = server.client()) {
            PendingFile file = backend.create("t/dt=2026-11-21/t+0+0.jsonl.zst", "_sluice/staging/id/0/");
            try (OutputStream out = file.stream()) {
                for (int i = 0; i < data.length; i += 100_000) {
                    out.write(data, i, Math.min(100_000, data.length - i));
                }
            }
            PendingRef ref = file.finish();

            String uploadId = java.net.URLDecoder.decode(ref.staging().substring(ref.staging().lastIndexOf('/') + 1),
                    StandardCharsets.UTF_8);
            List<Part> parts = client.listParts(b -> b.bucket(bucket).key("archive/" + ref.path()).uploadId(uploadId))
                    .parts();
            for (int i = 0; i < parts.size() - 1; i++) {
                assertTrue(parts.get(i).size() >= S3Backend.MIN_PART_SIZE, "part " + parts.get(i).partNumber()
                        + " is " + parts.get(i).size() + " bytes; S3 wants 5 MiB but for the last");
            }
            assertEquals(data.length, parts.stream().mapToLong(Part::size).sum());
            assertTrue(backend.list("t/").isEmpty(), "invisible before publishing");
            List<PendingRef> staged = backend.listStaged("_sluice/staging/id/0/");
            assertEquals(List.of(ref.path()), staged.stream().map(PendingRef::path).toList());
            assertTrue(ref.staging().startsWith(staged.get(0).staging()), "the same marker: " + staged + " " + ref);

            backend.publish(ref);
            backend.publish(ref); // recovery may publish what was published before a crash
            assertEquals(List.of("t/dt=2026-11-21/t+0+0.jsonl.zst"), backend.list("t/"));
            assertArrayEquals(data, client.getObject(b -> b.bucket(bucket).key("archive/t/dt=2026-11-21/t+0+0.jsonl.zst"),
                    ResponseTransformer.toBytes()).asByteArray());
            assertTrue(backend.listStaged("_sluice/staging/id/0/").isEmpty(), "the marker is gone");
        }
    }

    /**
     * A file is finished once: a second finish staged it again under another name, or, for one that had spilled to
     * its spool, an empty object, which a roll run again after a failure published under a manifest entry claiming
     * records (a review). Nothing more is staged.
     */
    @Test
    void aSecondFinishIsRefusedAndStagesNothing() throws Exception {
        String bucket = server.createBucket("finish-twice");
        try (S3Backend backend = backend(bucket)) {
            PendingFile file = backend.create("t/t+0+0.jsonl", "_sluice/staging/id/0/");
            try (OutputStream out = file.stream()) {
                out.write(new byte[100_000]); // past the heap buffer: spilled to the spool
            }
            file.finish();
            assertThrows(IllegalStateException.class, file::finish);
            assertEquals(1, backend.listStaged("_sluice/staging/id/0/").size(), "staged once");
        }
    }

    @Test
    void aFileSmallerThanAPartIsStagedWholeUnderItsPartitionAndCopiedIntoPlaceWhenPublished() throws Exception {
        String bucket = server.createBucket("whole");
        String path = "t/category=a b~c/t+0+7.jsonl"; // characters that need encoding, and the separator itself
        try (S3Backend backend = backend(bucket); S3Client client = server.client()) {
            PendingFile file = backend.create(path, "_sluice/staging/id/4/");
            file.stream().write("{\"a\":1}\n".getBytes(StandardCharsets.UTF_8));
            PendingRef ref = file.finish();
            assertTrue(client.listMultipartUploads(b -> b.bucket(bucket)).uploads().isEmpty(), "no multipart upload");
            assertTrue(backend.list("t/").isEmpty(), "invisible before publishing");
            assertEquals(List.of(ref), backend.listStaged("_sluice/staging/id/4/"), "recovery finds it, and where "
                    + "it goes");

            backend.publish(ref);
            backend.publish(ref); // recovery may publish what was published before a crash
            assertEquals(List.of(path), backend.list("t/"));
            assertEquals("{\"a\":1}\n", new String(backend.read(path).orElseThrow(), StandardCharsets.UTF_8));
            assertTrue(backend.listStaged("_sluice/staging/id/4/").isEmpty(), "the staged copy is gone");

            PendingFile discarded = backend.create("t/gone.jsonl", "_sluice/staging/id/4/");
            backend.discard(discarded.finish()); // an empty file, given up after a rejected commit
            assertTrue(backend.listStaged("_sluice/staging/id/4/").isEmpty());
            assertEquals(List.of(path), backend.list("t/"));
        }
    }

    @Test
    void aDiscardedFileNeverAppearsAndManifestsRoundTrip() throws Exception {
        String bucket = server.createBucket("discard");
        try (S3Backend backend = backend(bucket); S3Client client = server.client()) {
            PendingFile file = backend.create("t/x.jsonl", "_sluice/staging/id/1/");
            file.stream().write("{}\n".getBytes(StandardCharsets.UTF_8));
            PendingRef ref = file.finish();
            backend.discard(ref);
            backend.discard(ref);
            assertTrue(client.listMultipartUploads(b -> b.bucket(bucket)).uploads().isEmpty(), "upload aborted");
            assertTrue(backend.list("").isEmpty());

            backend.writeAtomically("_sluice/manifests/id/1/00000000000000000042.json", "{\"a\":1}".getBytes());
            assertEquals("{\"a\":1}", new String(backend.read("_sluice/manifests/id/1/00000000000000000042.json")
                    .orElseThrow()));
            assertTrue(backend.read("_sluice/manifests/id/1/missing.json").isEmpty());
        }
    }

    /**
     * Recovery finds uploads through their markers: by the upload's ID, which the marker holds once the upload began,
     * or, when a crash came between the marker and the upload (no ID recorded), by the key and the time the marker was
     * written, at the listing. It aborts those, and never a later writer's upload of the same key (it aborted every
     * upload of the key, among them a later owner's committed file: a review), even one begun within seconds of the
     * marker after the listing (the lister's own: it removes what it listed after its first commit).
     */
    @Test
    void recoveryAbortsTheUploadsItFindsThroughMarkersAndNoLaterWritersUploadOfTheSameKey() throws Exception {
        String bucket = server.createBucket("recover");
        try (S3Backend backend = backend(bucket); S3Client client = server.client()) {
            byte[] overAPart = new byte[S3Backend.MIN_PART_SIZE + 100]; // so each file is an upload
            for (String path : List.of("t/a.jsonl", "t/b.jsonl")) {
                PendingFile file = backend.create(path, "_sluice/staging/id/2/");
                file.stream().write(overAPart);
                if (path.endsWith("a.jsonl")) {
                    file.finish(); // a sealed file; b stays open, as a crash leaves it
                }
            }
            // a crash between the marker and the upload's ID: the marker names the path only
            client.putObject(b -> b.bucket(bucket).key("archive/_sluice/staging/id/2/crashed"),
                    software.amazon.awssdk.core.sync.RequestBody.fromString("t/c.jsonl"));
            client.createMultipartUpload(b -> b.bucket(bucket).key("archive/t/c.jsonl"));
            List<PendingRef> found = backend.listStaged("_sluice/staging/id/2/");
            assertEquals(3, found.size(), found.toString());

            // the partition moved on: a later owner writes files of a's and c's names (the same first offsets)
            // meanwhile; c's begins within seconds of the crashed marker, as the lister's own would after its
            // recovery (it removes what it listed only after its first commit): found by time then, it was aborted
            S3Backend.Started later = backend.start("t/a.jsonl", "_sluice/staging/id/2/");
            S3Backend.Started laterC = backend.start("t/c.jsonl", "_sluice/staging/id/2/");
            backend.discardAll(found);
            List<String> left = client.listMultipartUploads(b -> b.bucket(bucket)).uploads().stream()
                    .map(u -> u.uploadId()).sorted().toList();
            assertEquals(java.util.stream.Stream.of(later.uploadId(), laterC.uploadId()).sorted().toList(), left,
                    "only the later owner's uploads are left");
            assertEquals(java.util.Set.of(later.ref(), laterC.ref()),
                    java.util.Set.copyOf(backend.listStaged("_sluice/staging/id/2/")));
        }
    }

    @Test
    void partsAccumulateOnLocalDiskWhileTheHeapHoldsOneSmallBufferPerFile() throws Exception {
        String bucket = server.createBucket("spool");
        Path spool = TestDirs.newDir("spool");
        byte[] data = new byte[S3Backend.MIN_PART_SIZE + 700_000];
        new Random(7).nextBytes(data);
        try (S3Backend backend = new S3Backend(config(bucket).spoolDirectory(spool).build());
                S3Client client = server.client()) {
            PendingFile file = backend.create("t/spooled.bin", "_sluice/staging/id/2/");
            file.stream().write(data, 0, 3 * 1024 * 1024);
            assertTrue(file.bufferedBytes() <= 64 * 1024, file.bufferedBytes() + " bytes on the heap for one file");
            long spooled = spooledBytes(spool);
            assertTrue(spooled >= 3 * 1024 * 1024 - file.bufferedBytes(), spooled + " bytes on disk: all but a buffer");
            assertTrue(client.listMultipartUploads(b -> b.bucket(bucket)).uploads().isEmpty(),
                    "no request before the first part is complete");

            file.stream().write(data, 3 * 1024 * 1024, data.length - 3 * 1024 * 1024);
            assertEquals(1, client.listMultipartUploads(b -> b.bucket(bucket)).uploads().size(), "part 1 is sent");
            assertTrue(spooledBytes(spool) < 700_000, "and its bytes left the spool");

            PendingRef ref = file.finish();
            assertEquals(0, spooledBytes(spool), "the spool file is gone after the last part");
            backend.publish(ref);
            assertArrayEquals(data, client.getObject(b -> b.bucket(bucket).key("archive/t/spooled.bin"),
                    ResponseTransformer.toBytes()).asByteArray());

            PendingFile aborted = backend.create("t/aborted.bin", "_sluice/staging/id/2/");
            aborted.stream().write(data);
            aborted.abort();
            assertEquals(0, spooledBytes(spool), "an aborted file's spool is gone");
            assertTrue(client.listMultipartUploads(b -> b.bucket(bucket)).uploads().isEmpty(), "and its upload");
            assertTrue(backend.listStaged("_sluice/staging/id/2/").isEmpty(), "and its marker");
        }
    }

    @Test
    void aStartingBackendRemovesWhatKilledRunsLeftInTheSpoolButNotWhatALiveBackendHolds() throws Exception {
        String bucket = server.createBucket("leftovers");
        Path spool = TestDirs.newDir("spool-leftovers");
        // a killed run: its lock file (nobody holds the lock any more) and its folder with a half-written part
        Files.createDirectories(spool.resolve("killed"));
        Files.write(spool.resolve("killed/part.part"), new byte[1000]);
        Files.createFile(spool.resolve("killed.lock"));
        // a run killed while removing its folder: the lock file went first
        Files.createDirectories(spool.resolve("half-removed"));
        try (S3Backend live = new S3Backend(config(bucket).spoolDirectory(spool).build())) {
            try (Stream<Path> left = Files.list(spool)) {
                assertEquals(List.of(), left.map(p -> p.getFileName().toString())
                        .filter(n -> n.startsWith("killed") || n.startsWith("half")).toList(), "leftovers removed");
            }
            PendingFile open = live.create("t/live.bin", "_sluice/staging/id/3/");
            open.stream().write(new byte[100_000]); // spilled to the live backend's spool
            try (S3Backend second = new S3Backend(config(bucket).spoolDirectory(spool).build())) {
                assertTrue(spooledBytes(spool) >= 100_000 - open.bufferedBytes(), "a live spool stays");
            }
            open.abort();
        }
        try (Stream<Path> left = Files.list(spool)) {
            assertEquals(List.of(), left.toList(), "a closed backend leaves nothing");
        }
    }

    /**
     * A refusal says what to mend in the pipeline's words: a wrong secret was said around an internal key
     * ({@code _sluice/groups/...}) in S3's own words, and a missing bucket as a failed "claim" (a new user's run).
     */
    @Test
    void aWrongSecretAndAMissingBucketAreSaidWithTheKeysToMend() throws Exception {
        String bucket = server.createBucket("refusals");
        S3Config.Builder wrongSecret = config(bucket).credentials(StaticCredentialsProvider.create(
                AwsBasicCredentials.create(server.accessKey(), "not-the-secret")));
        try (S3Backend backend = new S3Backend(wrongSecret.spoolDirectory(TestDirs.newDir("spool")).build())) {
            IOException refused = assertThrows(IOException.class, () -> backend.writeAtomically("_sluice/x", new byte[1]));
            assertTrue(refused.getMessage().contains("the store refused the credentials")
                    && refused.getMessage().contains("sink.s3.access-key and secret-key"), refused.getMessage());
        }
        String missing = bucket + "-gone";
        try (S3Backend backend = backend(missing)) {
            IOException gone = assertThrows(IOException.class, () -> backend.writeAtomically("_sluice/x", new byte[1]));
            assertTrue(gone.getMessage().contains("the bucket " + missing + " does not exist: create it, or correct "
                    + "sink.location"), gone.getMessage());
            IOException listed = assertThrows(IOException.class, () -> backend.list(""));
            assertTrue(listed.getMessage().contains("cannot list the archive: the bucket " + missing), listed.getMessage());
        }
    }

    private static long spooledBytes(Path spool) throws Exception {
        try (Stream<Path> files = Files.walk(spool)) {
            long total = 0;
            for (Path f : files.filter(p -> p.toString().endsWith(".part")).toList()) {
                total += Files.size(f);
            }
            return total;
        }
    }

    private S3Config.Builder config(String bucket) {
        return S3Config.builder(bucket).endpoint(server.endpoint()).prefix("archive/").partSize(S3Backend.MIN_PART_SIZE)
                .credentials(StaticCredentialsProvider.create(AwsBasicCredentials.create(server.accessKey(),
                        server.secretKey())));
    }

    private S3Backend backend(String bucket) {
        return new S3Backend(config(bucket).spoolDirectory(TestDirs.newDir("spool")).build());
    }
}
