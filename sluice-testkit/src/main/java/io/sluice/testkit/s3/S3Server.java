package io.sluice.testkit.s3;

import io.sluice.local.LocalDirs;
import io.sluice.local.net.Ports;
import io.sluice.local.process.ChildJvm;
import io.sluice.local.process.ChildProcess;
import io.sluice.local.process.ServerRuntime;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * A real S3-compatible server (s3proxy with its filesystem backend) as a child JVM on 127.0.0.1, with static
 * credentials. {@link #stop()} and {@link #start()} simulate an outage: the server comes back on the same port and
 * data.
 *
 * <p>Threading: lifecycle methods are synchronized.
 */
public final class S3Server implements AutoCloseable {

    public static final String REGION = "us-east-1";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

    private final int port;
    private final Path dir;
    private final ChildJvm jvm;
    private final String accessKey = "sluice-access";
    private final String secretKey = "sluice-secret-" + Long.toHexString(System.nanoTime());
    private ChildProcess process;

    private S3Server(Path dir) {
        this.dir = dir;
        this.port = Ports.free();
        Path data = LocalDirs.createDirectories(dir.resolve("data"));
        Path properties = dir.resolve("s3proxy.properties");
        try {
            Files.writeString(properties, String.join("\n",
                    "s3proxy.endpoint=http://127.0.0.1:" + port,
                    "s3proxy.authorization=aws-v2-or-v4",
                    "s3proxy.identity=" + accessKey,
                    "s3proxy.credential=" + secretKey,
                    "s3proxy.ignore-unknown-headers=true",
                    "jclouds.provider=filesystem",
                    "jclouds.filesystem.basedir=" + data) + "\n", StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        this.jvm = ChildJvm.builder("s3proxy")
                .runtime(ServerRuntime.S3PROXY)
                .jvmOptions(List.of("-Xms32m", "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"))
                .mainClass("org.gaul.s3proxy.Main")
                .args("--properties", properties.toString())
                .workDir(dir)
                .build();
    }

    /** Starts a server in a fresh test folder and waits until it answers. */
    public static S3Server start(String name) {
        S3Server server = new S3Server(LocalDirs.newDir(name));
        server.start();
        return server;
    }

    /** Starts (or restarts after {@link #stop()}) the server and waits until it answers HTTP. */
    public synchronized void start() {
        if (process != null && process.isAlive()) {
            throw new IllegalStateException("s3proxy is already running");
        }
        process = jvm.start();
        awaitHttp();
    }

    /** Kills the server: connections drop and new ones are refused until {@link #start()}. */
    public synchronized void stop() {
        if (process != null && process.isAlive()) {
            process.kill();
        }
    }

    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + port);
    }

    public String accessKey() {
        return accessKey;
    }

    public String secretKey() {
        return secretKey;
    }

    /** A client for this server: path-style addressing, static credentials, the SDK's default retries. */
    public S3Client client() {
        return S3Client.builder()
                .endpointOverride(endpoint())
                .forcePathStyle(true)
                .region(Region.of(REGION))
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKey, secretKey)))
                .httpClientBuilder(UrlConnectionHttpClient.builder())
                .build();
    }

    /** Creates a bucket with a unique name and returns the name. */
    public String createBucket(String prefix) {
        String bucket = io.sluice.testkit.Names.unique(prefix).toLowerCase(java.util.Locale.ROOT);
        try (S3Client s3 = client()) {
            s3.createBucket(b -> b.bucket(bucket));
        }
        return bucket;
    }

    public Path dir() {
        return dir;
    }

    @Override
    public synchronized void close() {
        stop();
        LocalDirs.deleteTree(dir.resolve("data"));
    }

    /** Ready when any HTTP answer comes back; an unsigned request gets 403, which proves the server is up. */
    private void awaitHttp() {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (true) {
            try {
                HttpURLConnection connection = (HttpURLConnection) endpoint().toURL().openConnection();
                connection.setConnectTimeout(1_000);
                connection.setReadTimeout(2_000);
                connection.getResponseCode();
                connection.disconnect();
                return;
            } catch (IOException e) {
                if (!process.isAlive() || System.nanoTime() > deadline) {
                    throw new IllegalStateException("s3proxy did not answer on " + endpoint()
                            + ". Last lines of " + process.logFile() + ":\n" + process.tail(), e);
                }
                try {
                    Thread.sleep(50);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(ie);
                }
            }
        }
    }
}
