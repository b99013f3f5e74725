package io.sluice.storage.backend;

import io.sluice.testkit.hdfs.HdfsServer;
import io.sluice.testkit.s3.S3Server;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.MultipartUpload;

/**
 * Where a test archives, written as one string that a child JVM takes as an argument and opens as the test JVM does:
 * {@code local|<root>}, {@code s3|<endpoint>|<bucket>|<access key>|<secret key>} (key prefix {@code archive/}) or
 * {@code hdfs|<file system URI>|<root>}. For tests.
 */
public record TestStorage(String spec) {

    private static final String S3_PREFIX = "archive/";

    public static TestStorage local(Path root) {
        return new TestStorage("local|" + root.toAbsolutePath());
    }

    /** A fresh bucket on {@code server}. */
    public static TestStorage s3(S3Server server) {
        return new TestStorage(String.join("|", "s3", server.endpoint().toString(), server.createBucket("archive"),
                server.accessKey(), server.secretKey()));
    }

    /** A fresh root folder on {@code server}. */
    public static TestStorage hdfs(HdfsServer server) {
        return new TestStorage(String.join("|", "hdfs", server.uri().toString(),
                "/" + io.sluice.testkit.Names.unique("archive")));
    }

    /** {@code local}, {@code s3} or {@code hdfs}. */
    public String kind() {
        return part(0);
    }

    /** The archive's root folder, when it is on local disk: readers can open its files where they are. */
    public Optional<Path> localRoot() {
        return kind().equals("local") ? Optional.of(Path.of(part(1))) : Optional.empty();
    }

    public StorageBackend open() throws IOException {
        return switch (kind()) {
            case "local" -> new LocalBackend(Path.of(part(1)));
            case "s3" -> new S3Backend(S3Config.builder(part(2)).endpoint(URI.create(part(1)))
                    .region(S3Server.REGION).credentials(credentials()).prefix(S3_PREFIX)
                    .partSize(S3Config.MIN_PART_SIZE).build());
            case "hdfs" -> new HdfsBackend(HdfsConfig.builder(URI.create(part(1))).root(part(2))
                    .property("dfs.replication", "1").build());
            default -> throw new IllegalArgumentException("unknown storage " + spec);
        };
    }

    /**
     * Multipart uploads begun and never completed nor aborted under the archive (S3 only; none elsewhere): what a
     * crash or a zombie would leave behind, billed, if recovery missed it.
     */
    public List<String> incompleteUploads() {
        if (!kind().equals("s3")) {
            return List.of();
        }
        try (S3Client s3 = S3Client.builder().endpointOverride(URI.create(part(1))).forcePathStyle(true)
                .region(Region.of(S3Server.REGION)).credentialsProvider(credentials())
                .httpClientBuilder(UrlConnectionHttpClient.builder()).build()) {
            return s3.listMultipartUploadsPaginator(b -> b.bucket(part(2)).prefix(S3_PREFIX)).uploads().stream()
                    .map(MultipartUpload::key).toList();
        }
    }

    @Override
    public String toString() {
        return kind();
    }

    private StaticCredentialsProvider credentials() {
        return StaticCredentialsProvider.create(AwsBasicCredentials.create(part(3), part(4)));
    }

    private String part(int i) {
        return spec.split(Pattern.quote("|"))[i];
    }
}
