package io.sluice.storage.backend;

import java.io.IOException;
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
import java.util.UUID;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.retries.StandardRetryStrategy;
import software.amazon.awssdk.retries.api.BackoffStrategy;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.MultipartUpload;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.NoSuchUploadException;
import software.amazon.awssdk.services.s3.model.Part;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * S3 and S3-compatible stores. Bytes accumulate in a local spool file, not on the heap: an open file holds only a
 * small buffer in memory ({@link SpooledUpload}), so a thousand open files cost a thousand small buffers, not a
 * thousand parts. A file is staged in one of two ways, both invisible until published:
 *
 * <ul>
 *   <li>A file that reaches the part size becomes a multipart upload to its final key, left incomplete; completing
 *       it is the publication. Parts are {@code partSize} bytes (at least 5 MiB, as S3 demands of every part but the
 *       last). Before the upload is created, a marker object, {@code <staging prefix><uuid>}, is written holding its
 *       final path, so that recovery finds a partition's uploads without listing the whole bucket, even one whose
 *       creation a crash interrupted; once the upload began, the marker is written again with its ID. The file's
 *       staging reference is {@code <marker>/<upload id>}; recovery, which sees only markers, aborts the upload a
 *       marker records, or for one that records none, the uploads of its key begun within seconds of it.
 *   <li>A smaller file, the common case when many files are open, is put whole under
 *       {@code <staging prefix><uuid>~<final path, URL-encoded>}; publishing copies it to its final key (an atomic,
 *       server-side copy) and deletes it. Three requests instead of six.
 * </ul>
 *
 * <p>The last segment of an upload's staging key is a UUID (the marker) or the URL-encoded upload ID, which turns any
 * {@code ~} into {@code %7E}, so a {@code ~} in the last segment says it is a whole staged object. Every request is retried with exponential backoff
 * (half jitter; 0.2 s doubling up to 2 s, throttling 0.5 s up to 10 s) on 5xx answers, throttling and connection
 * errors for as long as
 * {@link S3Config#retryFor()} allows, so an outage shorter than that is ridden out; a longer one fails the request
 * with an error that says so.
 *
 * <p>A store that does not answer is said in the log, once it has not for 15 s, and again when it answers
 * ({@link StoreSilence}, on a daemon thread of its own until {@link #close}): the SDK's retries say nothing.
 *
 * <p>Threading: safe for concurrent use; the client is.
 */
public final class S3Backend implements StorageBackend {

    /** S3's smallest part, except the last. */
    public static final int MIN_PART_SIZE = S3Config.MIN_PART_SIZE;
    /**
     * How long after its marker an upload with no recorded ID may have begun: the two requests follow each other, so
     * seconds; a later owner's file of the same name comes after a rebalance, a recovery and a part's worth of records.
     */
    static final java.time.Duration UNRECORDED_UPLOAD_WINDOW = java.time.Duration.ofSeconds(10);
    /** Separates a whole staged object's id from its final path; never in a URL-encoded upload ID. */
    private static final char WHOLE = '~';

    private final S3Client s3;
    private final String bucket;
    private final String prefix;
    private final int partSize;
    private final Duration retryFor;
    private final SpoolDirectory spool;
    private final StoreSilence silence;

    /**
     * With parts spooled under {@code <java.io.tmpdir>/sluice-s3-spool} and requests retried for 5 minutes.
     *
     * @param endpoint an endpoint override (S3-compatible stores, tests), or null for AWS
     * @param prefix   the key prefix of the archive root, "" or ending with '/'
     */
    public S3Backend(URI endpoint, String region, AwsCredentialsProvider credentials, String bucket, String prefix,
            int partSize) {
        this(S3Config.builder(bucket).endpoint(endpoint).region(region).credentials(credentials).prefix(prefix)
                .partSize(partSize).build());
    }

    /**
     * Takes a private spool folder under the configured directory and removes what earlier runs left there.
     *
     * @throws UncheckedIOException when the spool directory cannot be used
     */
    public S3Backend(S3Config config) {
        // attempts are bounded by time (the API call timeout), not by count: the outage's length is what matters
        StandardRetryStrategy retries = AwsRetryStrategy.configure(StandardRetryStrategy.builder())
                .maxAttempts(Integer.MAX_VALUE)
                .backoffStrategy(BackoffStrategy.exponentialDelayHalfJitter(Duration.ofMillis(200), Duration.ofSeconds(2)))
                .throttlingBackoffStrategy(BackoffStrategy.exponentialDelayHalfJitter(Duration.ofMillis(500),
                        Duration.ofSeconds(10)))
                .circuitBreakerEnabled(false)
                .build();
        StoreSilence silence = new StoreSilence("s3://" + config.bucket() + "/" + config.prefix(), config.retryFor(),
                System::nanoTime);
        var builder = S3Client.builder()
                .region(Region.of(config.region()))
                .credentialsProvider(config.credentials())
                .httpClientBuilder(UrlConnectionHttpClient.builder())
                .overrideConfiguration(o -> o.retryStrategy(retries).apiCallTimeout(config.retryFor())
                        .addExecutionInterceptor(silence));
        if (config.endpoint() != null) {
            builder.endpointOverride(config.endpoint()).forcePathStyle(true);
        }
        try {
            this.spool = SpoolDirectory.open(config.spoolDirectory());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot spool S3 parts in " + config.spoolDirectory() + ": " + e
                    + "; set a writable spool directory", e);
        }
        this.s3 = builder.build();
        this.silence = silence.watch(Duration.ofSeconds(1));
        this.bucket = config.bucket();
        this.prefix = config.prefix();
        this.partSize = config.partSize();
        this.retryFor = config.retryFor();
    }

    /** Nothing is sent yet: the upload starts with the file's first part. */
    @Override
    public PendingFile create(String path, String stagingPrefix) {
        return new SpooledUpload(this, path, stagingPrefix, spool.newFile(), partSize);
    }

    /** A multipart upload with its marker: the state a file is in from its first part on. */
    record Started(String key, String uploadId, PendingRef ref) {
    }

    Started start(String path, String stagingPrefix) throws IOException {
        String key = prefix + path;
        // the marker first: a crash between the two requests must not leave an upload that no marker leads to
        String marker = stagingPrefix + UUID.randomUUID();
        call("write the staging marker of " + path,
                () -> s3.putObject(b -> b.bucket(bucket).key(prefix + marker), RequestBody.fromString(path)));
        String uploadId = call("start an upload of " + path,
                () -> s3.createMultipartUpload(b -> b.bucket(bucket).key(key)).uploadId());
        // then the upload's ID in the marker: a recovery that finds the marker aborts that upload only. Known by its
        // key alone, it aborted every upload of the key, among them a later owner's file of the same name, which
        // that owner's commit then named (a review: its records gone from the archive)
        call("write the staging marker of " + path,
                () -> s3.putObject(b -> b.bucket(bucket).key(prefix + marker), RequestBody.fromString(path + "\n"
                        + uploadId)));
        return new Started(key, uploadId, new PendingRef(path, marker + "/" + URLEncoder.encode(uploadId,
                StandardCharsets.UTF_8)));
    }

    /** Stages a file smaller than a part as one object, its final path in its name. */
    PendingRef stageWhole(String path, String stagingPrefix, RequestBody body) throws IOException {
        String staged = stagingPrefix + UUID.randomUUID() + WHOLE + URLEncoder.encode(path, StandardCharsets.UTF_8);
        call("stage " + path, () -> s3.putObject(b -> b.bucket(bucket).key(prefix + staged), body));
        return new PendingRef(path, staged);
    }

    void uploadPart(Started upload, int number, RequestBody body) throws IOException {
        call("upload part " + number + " of " + upload.ref().path(), () -> s3.uploadPart(b -> b.bucket(bucket)
                .key(upload.key()).uploadId(upload.uploadId()).partNumber(number), body));
    }

    @Override
    public boolean publish(PendingRef ref) throws IOException {
        if (isWhole(ref.staging())) {
            return publishWhole(ref);
        }
        boolean published = true;
        String key = prefix + ref.path();
        String uploadId = uploadId(ref);
        try {
            List<CompletedPart> parts = new ArrayList<>();
            // a paginator sends its requests while iterated, so the whole listing happens inside call()
            for (Part p : call("list the parts of " + ref.path(), () -> s3.listPartsPaginator(b -> b.bucket(bucket)
                    .key(key).uploadId(uploadId)).parts().stream().toList())) {
                parts.add(CompletedPart.builder().partNumber(p.partNumber()).eTag(p.eTag()).build());
            }
            parts.sort(Comparator.comparing(CompletedPart::partNumber));
            call("publish " + ref.path(), () -> s3.completeMultipartUpload(b -> b.bucket(bucket).key(key).uploadId(uploadId)
                    .multipartUpload(m -> m.parts(parts))));
        } catch (NoSuchUploadException e) {
            if (!exists(key)) {
                throw new CommittedFileGoneException("neither the upload " + uploadId + " nor the object s3://"
                        + bucket + "/" + key + " exists: the file a committed manifest names is gone", e);
            }
            published = false; // completed before a crash: nothing left to do
        }
        call("remove the staging marker of " + ref.path(),
                () -> s3.deleteObject(b -> b.bucket(bucket).key(prefix + marker(ref))));
        return published;
    }

    private boolean publishWhole(PendingRef ref) throws IOException {
        String key = prefix + ref.path();
        try {
            call("publish " + ref.path(), () -> s3.copyObject(b -> b.sourceBucket(bucket).sourceKey(prefix + ref.staging())
                    .destinationBucket(bucket).destinationKey(key)));
        } catch (S3Exception e) { // only "not found" comes through call() unwrapped: the staged object is gone
            if (!exists(key)) {
                throw new CommittedFileGoneException("neither the staged object " + ref.staging() + " nor the "
                        + "object s3://" + bucket + "/" + key + " exists: the file a committed manifest names is gone",
                        e);
            }
            return false; // published before a crash: nothing left to do
        }
        call("remove the staged copy of " + ref.path(),
                () -> s3.deleteObject(b -> b.bucket(bucket).key(prefix + ref.staging())));
        return true;
    }

    /**
     * Removes a staged file: a whole object, or an upload by the ID its reference holds, and its marker. A reference
     * without an ID ({@link #listStaged} found no upload for a marker that never received one) removes the marker.
     * Never by time here: a recovery removes what it listed only after its owner's first commit, when the owner's own
     * upload of the same path may have begun near the marker's time.
     */
    @Override
    public void discard(PendingRef ref) throws IOException {
        if (isWhole(ref.staging())) {
            call("remove the staged " + ref.path(), () -> s3.deleteObject(b -> b.bucket(bucket).key(prefix
                    + ref.staging())));
            return;
        }
        String key = prefix + ref.path();
        String uploadId = uploadId(ref);
        if (!uploadId.isEmpty()) {
            try {
                call("abort the upload of " + ref.path(),
                        () -> s3.abortMultipartUpload(b -> b.bucket(bucket).key(key).uploadId(uploadId)));
            } catch (NoSuchUploadException e) {
                // already gone
            }
        }
        call("remove the staging marker of " + ref.path(),
                () -> s3.deleteObject(b -> b.bucket(bucket).key(prefix + marker(ref))));
    }

    /**
     * The uploads of {@code key} a marker without an upload ID, written at {@code written} (the store's time), leads
     * to: a crash came between the marker and the upload's start, or between the start and the marker's rewrite with
     * the ID. The upload began right after the marker was written, so only uploads of the key begun within
     * {@link #UNRECORDED_UPLOAD_WINDOW} of the marker's time are its (both times the store's own); a later writer's
     * upload of the same key is not, nor one begun after this listing.
     */
    private List<String> startedWith(String path, String key, java.time.Instant written) throws IOException {
        return call("list the uploads of " + path, () -> s3.listMultipartUploadsPaginator(b -> b.bucket(bucket)
                .prefix(key)).uploads().stream().filter(u -> u.key().equals(key))
                .filter(u -> u.initiated() == null || !u.initiated().isBefore(written.minus(UNRECORDED_UPLOAD_WINDOW))
                        && !u.initiated().isAfter(written.plus(UNRECORDED_UPLOAD_WINDOW)))
                .map(MultipartUpload::uploadId).toList());
    }

    @Override
    public List<PendingRef> listStaged(String stagingPrefix) throws IOException {
        List<PendingRef> refs = new ArrayList<>();
        for (S3Object o : call("list " + stagingPrefix, () -> s3.listObjectsV2Paginator(b -> b.bucket(bucket)
                .prefix(prefix + stagingPrefix)).contents().stream().toList())) {
            String marker = o.key().substring(prefix.length());
            if (isWhole(marker)) {
                String name = marker.substring(marker.lastIndexOf('/') + 1);
                refs.add(new PendingRef(URLDecoder.decode(name.substring(name.indexOf(WHOLE) + 1),
                        StandardCharsets.UTF_8), marker));
                continue;
            }
            String[] content = call("read the staging marker " + marker, () -> s3.getObjectAsBytes(b -> b.bucket(
                    bucket).key(o.key())).asUtf8String()).split("\n", 2);
            if (content.length == 2) { // the upload's ID, once the upload began
                refs.add(new PendingRef(content[0], marker + "/"
                        + URLEncoder.encode(content[1], StandardCharsets.UTF_8)));
                continue;
            }
            // a crash came first: its upload, if any, is found by time now, at the listing, and named by its ID, so
            // that removing it later never takes an upload begun since (its lister's own, of the same path)
            java.time.Instant written = o.lastModified() != null ? o.lastModified() : call("read the staging marker "
                    + marker, () -> s3.headObject(b -> b.bucket(bucket).key(o.key())).lastModified());
            List<String> uploads = startedWith(content[0], prefix + content[0], written);
            if (uploads.isEmpty()) {
                refs.add(new PendingRef(content[0], marker + "/"));
            }
            for (String uploadId : uploads) {
                refs.add(new PendingRef(content[0], marker + "/"
                        + URLEncoder.encode(uploadId, StandardCharsets.UTF_8)));
            }
        }
        return refs;
    }

    @Override
    public void writeAtomically(String path, byte[] content) throws IOException {
        call("write " + path, () -> s3.putObject(b -> b.bucket(bucket).key(prefix + path),
                RequestBody.fromBytes(content)));
    }

    @Override
    public void delete(String path) throws IOException {
        call("remove " + path, () -> s3.deleteObject(b -> b.bucket(bucket).key(prefix + path)));
    }

    @Override
    public Optional<byte[]> read(String path) throws IOException {
        try {
            return Optional.of(call("read " + path, () -> s3.getObjectAsBytes(b -> b.bucket(bucket).key(prefix + path)).asByteArray()));
        } catch (NoSuchKeyException e) {
            return Optional.empty();
        }
    }

    @Override
    public void download(String path, java.nio.file.Path target) throws IOException {
        try {
            java.nio.file.Files.deleteIfExists(target);
            call("download " + path, () -> s3.getObject(b -> b.bucket(bucket).key(prefix + path), target));
        } catch (NoSuchKeyException e) {
            throw new java.nio.file.NoSuchFileException(describe() + path);
        }
    }

    @Override
    public long size(String path) throws IOException {
        try {
            return call("look up " + path, () -> s3.headObject(b -> b.bucket(bucket).key(prefix + path)))
                    .contentLength();
        } catch (NoSuchKeyException e) {
            throw new java.nio.file.NoSuchFileException(describe() + path);
        } catch (S3Exception e) {
            if (e.statusCode() == 404) { // a HEAD's answer has no body: some stores give no error code to map
                throw new java.nio.file.NoSuchFileException(describe() + path);
            }
            throw e;
        }
    }

    @Override
    public List<String> list(String under) throws IOException {
        List<String> keys = new ArrayList<>();
        for (S3Object o : call("list " + (under.isEmpty() ? "the archive" : under), () -> s3.listObjectsV2Paginator(b -> b.bucket(bucket)
                .prefix(prefix + under)).contents().stream().toList())) {
            keys.add(o.key().substring(prefix.length()));
        }
        return keys;
    }

    /** The store did not answer within the retry time: S3 rides out shorter outages itself, by retrying. */
    @Override
    public Optional<String> outage(Throwable failure) {
        return StoreUnreachableException.in(failure) ? Optional.of("no answer within the retry time") : Optional.empty();
    }

    /**
     * How long requests have waited with no answer from the store, once that is an outage (said in the log at 15 s);
     * empty before and after.
     */
    @Override
    public Optional<Duration> silentFor() {
        return silence.silentFor();
    }

    @Override
    public String describe() {
        return "s3://" + bucket + "/" + prefix;
    }

    /** @throws UncheckedIOException when the spool folder cannot be removed */
    @Override
    public void close() {
        silence.close();
        s3.close();
        try {
            spool.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot remove the S3 spool folder " + spool, e);
        }
    }

    private boolean exists(String key) throws IOException {
        try {
            call("look up " + key, () -> s3.headObject(b -> b.bucket(bucket).key(key)));
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

    private static boolean isWhole(String staging) {
        return staging.indexOf(WHOLE, staging.lastIndexOf('/') + 1) >= 0;
    }

    /** The upload ID of an upload's staging reference {@code <marker>/<upload id>}, or "" when not known. */
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
     * outlived the retries becomes an IOException that says what could not be done, on which store, and why.
     */
    private <T> T call(String what, S3Call<T> request) throws IOException {
        try {
            return request.call();
        } catch (NoSuchKeyException | NoSuchUploadException e) {
            throw e;
        } catch (S3Exception e) {
            String code = e.awsErrorDetails() == null ? "" : String.valueOf(e.awsErrorDetails().errorCode());
            if (code.equals("NoSuchBucket")) { // a 404 too, but not one callers read as "no such key"
                throw new IOException(describe() + ": cannot " + what + ": the bucket " + bucket + " does not exist: "
                        + "create it, or correct sink.location", e);
            }
            if (code.equals("SignatureDoesNotMatch") || code.equals("InvalidAccessKeyId")) {
                // S3's words name neither key, and came around an internal key (_sluice/groups/...): a new user's run
                throw new IOException(describe() + ": cannot " + what + ": the store refused the credentials ("
                        + (code.equals("InvalidAccessKeyId") ? "it knows no such access key"
                                : "the secret key does not match the access key") + "): check sink.s3.access-key and "
                        + "secret-key, or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE", e);
            }
            if (e.statusCode() == 404) {
                throw e;
            }
            throw new IOException(describe() + ": cannot " + what + ": " + e.getMessage(), e);
        } catch (ApiCallTimeoutException e) {
            // a mistyped endpoint looks the same as an outage from here: "raise the retry time" alone was the wrong
            // advice for it (a new user's run)
            throw new StoreUnreachableException(describe() + ": cannot " + what + ": the store did not answer within the retry time ("
                    + retryFor.toSeconds() + " s): it is down or unreachable, or its endpoint is wrong (check the "
                    + "address and port); a longer retry time rides out longer outages", e);
        } catch (SdkException e) {
            if (String.valueOf(e.getMessage()).startsWith("Unable to load credentials")) {
                // the SDK's words list every provider of its chain by class name (a new user's run)
                throw new IOException(describe() + ": cannot " + what + ": no AWS credentials were found: set "
                        + "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE, or sink.s3.access-key and "
                        + "secret-key in the pipeline, or run where an instance role gives them", e);
            }
            throw new IOException(describe() + ": cannot " + what + ": " + e.getMessage(), e);
        }
    }
}
