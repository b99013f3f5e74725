package io.sluice.storage.backend;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.retries.StandardRetryStrategy;
import software.amazon.awssdk.retries.api.BackoffStrategy;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.NoSuchUploadException;
import software.amazon.awssdk.services.s3.model.Part;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * S3 and S3-compatible stores. A file is a multipart upload to its final key, left incomplete (and so invisible)
 * until published; completing it is the publication. Parts are {@code partSize} bytes (at least 5 MiB, as S3
 * demands of every part but the last), buffered on the heap one at a time per open file, which the memory budget
 * counts.
 *
 * <p>Before an upload is created, a marker object, {@code <staging prefix><uuid>}, is written holding its path, so that
 * recovery finds a partition's uploads without listing the whole bucket, even one whose creation a crash interrupted.
 * A file's staging reference is {@code <marker>/<upload id>}; recovery, which sees only markers, aborts every upload
 * of the marker's key. Requests retry with exponential backoff (0.2 s up to
 * 10 s, 12 attempts, about a minute) on 5xx, throttling and connection errors, so a short outage is ridden out.
 *
 * <p>Threading: safe for concurrent use; the client is.
 */
public final class S3Backend implements StorageBackend {

    /** S3's smallest part, except the last. */
    public static final int MIN_PART_SIZE = 5 * 1024 * 1024;

    private final S3Client s3;
    private final String bucket;
    private final String prefix;
    private final int partSize;

    /**
     * @param endpoint an endpoint override (S3-compatible stores, tests), or null for AWS
     * @param prefix   the key prefix of the archive root, "" or ending with '/'
     */
    public S3Backend(URI endpoint, String region, AwsCredentialsProvider credentials, String bucket, String prefix,
            int partSize) {
        if (partSize < MIN_PART_SIZE) {
            throw new IllegalArgumentException("S3 parts must be at least 5 MiB, not " + partSize + " bytes");
        }
        if (!prefix.isEmpty() && !prefix.endsWith("/")) {
            throw new IllegalArgumentException("the key prefix '" + prefix + "' must be empty or end with '/'");
        }
        StandardRetryStrategy retries = AwsRetryStrategy.configure(StandardRetryStrategy.builder())
                .maxAttempts(12)
                .backoffStrategy(BackoffStrategy.exponentialDelay(Duration.ofMillis(200), Duration.ofSeconds(10)))
                .throttlingBackoffStrategy(BackoffStrategy.exponentialDelay(Duration.ofMillis(500), Duration.ofSeconds(10)))
                .circuitBreakerEnabled(false)
                .build();
        var builder = S3Client.builder()
                .region(Region.of(region))
                .credentialsProvider(credentials)
                .httpClientBuilder(UrlConnectionHttpClient.builder())
                .overrideConfiguration(o -> o.retryStrategy(retries));
        if (endpoint != null) {
            builder.endpointOverride(endpoint).forcePathStyle(true);
        }
        this.s3 = builder.build();
        this.bucket = bucket;
        this.prefix = prefix;
        this.partSize = partSize;
    }

    @Override
    public PendingFile create(String path, String stagingPrefix) throws IOException {
        String key = prefix + path;
        // the marker first: a crash between the two requests must not leave an upload that no marker leads to
        String marker = stagingPrefix + java.util.UUID.randomUUID();
        call(() -> s3.putObject(b -> b.bucket(bucket).key(prefix + marker), RequestBody.fromString(path)));
        String uploadId = call(() -> s3.createMultipartUpload(b -> b.bucket(bucket).key(key)).uploadId());
        return new Upload(key, uploadId, new PendingRef(path, marker + "/" + URLEncoder.encode(uploadId,
                StandardCharsets.UTF_8)));
    }

    @Override
    public void publish(PendingRef ref) throws IOException {
        String key = prefix + ref.path();
        String uploadId = uploadId(ref);
        try {
            List<CompletedPart> parts = new ArrayList<>();
            for (Part p : call(() -> s3.listPartsPaginator(b -> b.bucket(bucket).key(key).uploadId(uploadId)).parts())) {
                parts.add(CompletedPart.builder().partNumber(p.partNumber()).eTag(p.eTag()).build());
            }
            parts.sort(Comparator.comparing(CompletedPart::partNumber));
            call(() -> s3.completeMultipartUpload(b -> b.bucket(bucket).key(key).uploadId(uploadId)
                    .multipartUpload(m -> m.parts(parts))));
        } catch (NoSuchUploadException e) {
            if (!exists(key)) {
                throw new IOException("neither the upload " + uploadId + " nor the object s3://" + bucket + "/" + key
                        + " exists: the file a committed manifest names is gone", e);
            }
            // completed before a crash: nothing left to do
        }
        call(() -> s3.deleteObject(b -> b.bucket(bucket).key(prefix + marker(ref))));
    }

    /**
     * Aborts the upload and removes its marker. A reference from {@link #listStaged} does not know its upload, so
     * every upload of its key is aborted: only recovery uses those, before this owner of the partition writes, when
     * any upload of the key is a dead writer's or a zombie's.
     */
    @Override
    public void discard(PendingRef ref) throws IOException {
        String key = prefix + ref.path();
        String known = uploadId(ref);
        List<String> uploadIds = !known.isEmpty() ? List.of(known) : call(() -> s3.listMultipartUploadsPaginator(
                b -> b.bucket(bucket).prefix(key)).uploads().stream().filter(u -> u.key().equals(key))
                .map(software.amazon.awssdk.services.s3.model.MultipartUpload::uploadId).toList());
        for (String uploadId : uploadIds) {
            try {
                call(() -> s3.abortMultipartUpload(b -> b.bucket(bucket).key(key).uploadId(uploadId)));
            } catch (NoSuchUploadException e) {
                // already gone
            }
        }
        call(() -> s3.deleteObject(b -> b.bucket(bucket).key(prefix + marker(ref))));
    }

    @Override
    public List<PendingRef> listStaged(String stagingPrefix) throws IOException {
        List<PendingRef> refs = new ArrayList<>();
        for (S3Object o : call(() -> s3.listObjectsV2Paginator(b -> b.bucket(bucket).prefix(prefix + stagingPrefix))
                .contents())) {
            String marker = o.key().substring(prefix.length());
            String path = call(() -> s3.getObjectAsBytes(b -> b.bucket(bucket).key(o.key())).asUtf8String());
            refs.add(new PendingRef(path, marker + "/")); // the upload is not known from the marker
        }
        return refs;
    }

    @Override
    public void writeAtomically(String path, byte[] content) throws IOException {
        call(() -> s3.putObject(b -> b.bucket(bucket).key(prefix + path), RequestBody.fromBytes(content)));
    }

    @Override
    public Optional<byte[]> read(String path) throws IOException {
        try {
            return Optional.of(call(() -> s3.getObjectAsBytes(b -> b.bucket(bucket).key(prefix + path)).asByteArray()));
        } catch (NoSuchKeyException e) {
            return Optional.empty();
        }
    }

    @Override
    public void download(String path, java.nio.file.Path target) throws IOException {
        try {
            java.nio.file.Files.deleteIfExists(target);
            call(() -> s3.getObject(b -> b.bucket(bucket).key(prefix + path), target));
        } catch (NoSuchKeyException e) {
            throw new java.nio.file.NoSuchFileException(describe() + path);
        }
    }

    @Override
    public List<String> list(String under) throws IOException {
        List<String> keys = new ArrayList<>();
        for (S3Object o : call(() -> s3.listObjectsV2Paginator(b -> b.bucket(bucket).prefix(prefix + under)).contents())) {
            keys.add(o.key().substring(prefix.length()));
        }
        return keys;
    }

    @Override
    public String describe() {
        return "s3://" + bucket + "/" + prefix;
    }

    @Override
    public void close() {
        s3.close();
    }

    private boolean exists(String key) throws IOException {
        try {
            call(() -> s3.headObject(b -> b.bucket(bucket).key(key)));
            return true;
        } catch (NoSuchKeyException e) {
            return false;
        } catch (S3Exception e) {
            if (e.statusCode() == 404) {
                return false;
            }
            throw e;
        }
    }

    /** The upload ID of a staging reference {@code <marker>/<upload id>}, or "" when not known. */
    private static String uploadId(PendingRef ref) {
        String staging = ref.staging();
        return URLDecoder.decode(staging.substring(staging.lastIndexOf('/') + 1), StandardCharsets.UTF_8);
    }

    private static String marker(PendingRef ref) {
        return ref.staging().substring(0, ref.staging().lastIndexOf('/'));
    }

    private interface S3Call<T> {
        T call();
    }

    /**
     * Runs a request; S3's "not found" answers pass through as they are (callers decide), every other failure that
     * outlived the retries becomes an IOException that says which store failed.
     */
    private <T> T call(S3Call<T> request) throws IOException {
        try {
            return request.call();
        } catch (NoSuchKeyException | NoSuchUploadException e) {
            throw e;
        } catch (S3Exception e) {
            if (e.statusCode() == 404) {
                throw e;
            }
            throw new IOException(describe() + ": " + e.getMessage(), e);
        } catch (SdkException e) {
            throw new IOException(describe() + " is unreachable after retries: " + e.getMessage(), e);
        }
    }

    /** One multipart upload, written part by part. Not thread-safe: one writer at a time. */
    private final class Upload implements PendingFile {
        private final String key;
        private final String uploadId;
        private final PendingRef ref;
        private final byte[] part = new byte[partSize];
        private int filled;
        private int nextPart = 1;
        private final OutputStream stream = new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                part[filled++] = (byte) b;
                if (filled == part.length) {
                    uploadPart();
                }
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                while (len > 0) {
                    int n = Math.min(len, part.length - filled);
                    System.arraycopy(b, off, part, filled, n);
                    filled += n;
                    off += n;
                    len -= n;
                    if (filled == part.length) {
                        uploadPart();
                    }
                }
            }
        };

        Upload(String key, String uploadId, PendingRef ref) {
            this.key = key;
            this.uploadId = uploadId;
            this.ref = ref;
        }

        @Override
        public OutputStream stream() {
            return stream;
        }

        @Override
        public PendingRef finish() throws IOException {
            if (filled > 0 || nextPart == 1) {
                uploadPart(); // the last part may be small, or empty when the whole file is
            }
            return ref;
        }

        @Override
        public void abort() {
            try {
                discard(ref);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public long bufferedBytes() {
            return part.length;
        }

        private void uploadPart() throws IOException {
            byte[] body = java.util.Arrays.copyOf(part, filled);
            filled = 0;
            int number = nextPart++;
            call(() -> s3.uploadPart(b -> b.bucket(bucket).key(key).uploadId(uploadId).partNumber(number),
                    RequestBody.fromBytes(body)));
        }
    }
}
