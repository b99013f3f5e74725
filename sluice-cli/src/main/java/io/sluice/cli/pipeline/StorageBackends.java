package io.sluice.cli.pipeline;

import io.sluice.storage.backend.HdfsBackend;
import io.sluice.storage.backend.HdfsConfig;
import io.sluice.storage.backend.LocalBackend;
import io.sluice.storage.backend.S3Backend;
import io.sluice.storage.backend.S3Config;
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
 * that name it validate, and {@code run} and {@code verify} refuse them with the reason. Adding one is one line:
 * replace its {@code pending(...)} with {@code available(..., target -> new TheBackend(...))}, reading the location
 * and the storage's settings from the {@link StorageTarget}.
 *
 * <p>Immutable.
 */
public final class StorageBackends {

    @FunctionalInterface
    public interface Factory {
        StorageBackend create(StorageTarget target) throws IOException;
    }

    /** @param factory null while the backend is pending; {@code pending} says why */
    public record Entry(String scheme, Factory factory, String pending) {

        public boolean available() {
            return factory != null;
        }
    }

    private static final List<Entry> ENTRIES = List.of(
            available("file", target -> new LocalBackend(Path.of(target.location().path()))),
            available("s3", StorageBackends::s3),
            available("hdfs", target -> new HdfsBackend(HdfsConfig.builder(
                    URI.create("hdfs://" + target.location().authority())).root("/" + target.location().path())
                    .properties(target.hdfsProperties()).build())));

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

    private static StorageBackend s3(StorageTarget target) {
        return new S3Backend(s3Config(target));
    }

    /** What the S3 backend of {@code target} is built with; nothing is contacted yet. */
    static S3Config s3Config(StorageTarget target) {
        S3Options s3 = target.s3();
        AwsCredentialsProvider credentials = s3.accessKey() == null
                ? DefaultCredentialsProvider.builder().build()
                : StaticCredentialsProvider.create(AwsBasicCredentials.create(s3.accessKey(), s3.secretKey().reveal()));
        S3Config.Builder config = S3Config.builder(target.location().authority())
                .endpoint(s3.endpoint() == null ? null : URI.create(s3.endpoint()))
                .region(s3.region())
                .credentials(credentials)
                .prefix(target.location().prefix())
                .partSize((int) s3.partSize())
                .retryFor(s3.retryFor());
        if (s3.spoolDirectory() != null) {
            config.spoolDirectory(s3.spoolDirectory());
        }
        return config.build();
    }
}
