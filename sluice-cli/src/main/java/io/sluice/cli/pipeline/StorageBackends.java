package io.sluice.cli.pipeline;

import io.sluice.storage.backend.LocalBackend;
import io.sluice.storage.backend.S3Backend;
import io.sluice.storage.backend.StorageBackend;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;

/**
 * The storage a sink location may name, by scheme. A backend not in this build yet is listed as pending: pipelines
 * that name it validate, and {@code run} refuses them with the reason. Adding one is one line: replace its
 * {@code pending(...)} with {@code available(..., sink -> new TheBackend(...))}.
 *
 * <p>Immutable.
 */
public final class StorageBackends {

    @FunctionalInterface
    public interface Factory {
        StorageBackend create(SinkConfig sink) throws IOException;
    }

    /** @param factory null while the backend is pending; {@code pending} says why */
    public record Entry(String scheme, Factory factory, String pending) {

        public boolean available() {
            return factory != null;
        }
    }

    private static final List<Entry> ENTRIES = List.of(
            available("file", sink -> new LocalBackend(Path.of(sink.location().path()))),
            available("s3", StorageBackends::s3),
            pending("hdfs", "the HDFS backend is being added to sluice-storage"));

    private StorageBackends() {
    }

    private static Entry available(String scheme, Factory factory) {
        return new Entry(scheme, factory, null);
    }

    private static Entry pending(String scheme, String reason) {
        return new Entry(scheme, null, reason);
    }

    public static List<Entry> all() {
        return ENTRIES;
    }

    public static List<String> schemes() {
        return ENTRIES.stream().map(Entry::scheme).toList();
    }

    public static Optional<Entry> find(String scheme) {
        return ENTRIES.stream().filter(e -> e.scheme().equals(scheme)).findFirst();
    }

    private static StorageBackend s3(SinkConfig sink) {
        S3Options s3 = sink.s3();
        AwsCredentialsProvider credentials = s3.accessKey() == null
                ? DefaultCredentialsProvider.builder().build()
                : StaticCredentialsProvider.create(AwsBasicCredentials.create(s3.accessKey(), s3.secretKey().reveal()));
        return new S3Backend(s3.endpoint() == null ? null : URI.create(s3.endpoint()), s3.region(), credentials,
                sink.location().authority(), sink.location().prefix(), (int) s3.partSize());
    }
}
