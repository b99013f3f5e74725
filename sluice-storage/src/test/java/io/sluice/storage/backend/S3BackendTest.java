package io.sluice.storage.backend;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testkit.SharedS3;
import io.sluice.testkit.s3.S3Server;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
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
     * Recovery knows uploads only by their markers, written before the upload is created: it aborts every upload of
     * the marker's key, so even an upload whose creation a crash interrupted (no ID recorded anywhere) is found.
     */
    @Test
    void recoveryAbortsTheUploadsItFindsThroughMarkers() throws Exception {
        String bucket = server.createBucket("recover");
        try (S3Backend backend = backend(bucket); S3Client client = server.client()) {
            for (String path : List.of("t/a.jsonl", "t/b.jsonl")) {
                PendingFile file = backend.create(path, "_sluice/staging/id/2/");
                file.stream().write("{}\n".getBytes(StandardCharsets.UTF_8));
                if (path.endsWith("a.jsonl")) {
                    file.finish(); // a sealed file; b stays open, as a crash leaves it
                }
            }
            // a second upload of the same key, as a dead writer and a zombie may both leave
            client.createMultipartUpload(b -> b.bucket(bucket).key("archive/t/a.jsonl"));
            assertEquals(3, client.listMultipartUploads(b -> b.bucket(bucket)).uploads().size());

            backend.discardAll(backend.listStaged("_sluice/staging/id/2/"));
            assertTrue(client.listMultipartUploads(b -> b.bucket(bucket)).uploads().isEmpty(), "every upload aborted");
            assertTrue(backend.list("").isEmpty(), "no marker, no object: " + backend.list(""));
        }
    }

    private S3Backend backend(String bucket) {
        return new S3Backend(server.endpoint(), S3Server.REGION, StaticCredentialsProvider.create(
                AwsBasicCredentials.create(server.accessKey(), server.secretKey())), bucket, "archive/",
                S3Backend.MIN_PART_SIZE);
    }
}
