package io.sluice.cli.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cli.Cli;
import io.sluice.cli.ExitStatus;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.net.Ports;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import io.sluice.testkit.TestDirs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * {@code validate --connect} writes a small file where the run writes its own: a location that can be listed but
 * takes no file was "answers" there, and failed only at the run's first commit.
 */
class StorageProbeTest {

    private final KafkaCluster kafka = SharedKafka.cluster();

    @Test
    void aLocationThatTakesNoFileFailsTheCheckAndOneThatDoesIsLeftAsItWas() throws Exception {
        String topic = Names.unique("probe");
        kafka.createTopic(topic, 1);
        Path dir = TestDirs.newDir("storage-probe");
        Path inTheWay = Files.writeString(dir.resolve("archive-is-a-file"), "not a folder");
        Cli.Result refused = Cli.run("validate", "--connect", pipeline(dir, topic, inTheWay).toString());
        assertEquals(ExitStatus.FAILURE, refused.status(), refused.out() + refused.err());
        assertTrue(refused.out().contains("storage: " + inTheWay + " FAILED: "), refused.out());

        Path archive = dir.resolve("archive");
        Cli.Result ok = Cli.run("validate", "--connect", pipeline(dir, topic, archive).toString());
        assertEquals(ExitStatus.OK, ok.status(), ok.out() + ok.err());
        assertTrue(ok.out().contains("answers, and takes a file"), ok.out());
        assertTrue(ok.out().lines().anyMatch(l -> l.equals("topic " + topic + ": 1 partition")), ok.out());
        try (Stream<Path> left = Files.walk(archive)) {
            assertTrue(left.noneMatch(Files::isRegularFile), "the probe's file is removed");
        }
    }

    private Path pipeline(Path dir, String topic, Path location) throws Exception {
        return Files.writeString(dir.resolve(location.getFileName() + ".yaml"), """
                source:
                  bootstrap-servers: %s
                  topics: [%s]
                  group: probe
                sink:
                  location: %s
                  template: "{topic}/"
                  format: jsonl
                """.formatted(kafka.bootstrapServers(), topic, location));
    }

    /**
     * An S3 endpoint nobody listens on (a typo of its port, a new user's run) is said within the check's own limit,
     * not after the run's 5-minute retry window of silence, and the words name a wrong endpoint as a cause.
     */
    @Test
    void anS3EndpointNobodyListensOnIsSaidWithinTheChecksLimit() throws Exception {
        String topic = Names.unique("probe-s3");
        kafka.createTopic(topic, 1);
        Path dir = TestDirs.newDir("storage-probe-s3");
        Path file = Files.writeString(dir.resolve("pipeline.yaml"), """
                source:
                  bootstrap-servers: %s
                  topics: [%s]
                  group: probe
                sink:
                  location: s3://nobody-listens/archive/
                  template: "{topic}/"
                  format: jsonl
                  s3:
                    endpoint: http://127.0.0.1:%d
                    region: us-east-1
                    access-key: key
                    secret-key: secret
                """.formatted(kafka.bootstrapServers(), topic, Ports.free()));
        long start = System.nanoTime();
        Cli.Result refused = Cli.run("validate", "--connect", file.toString());
        long seconds = java.util.concurrent.TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
        assertEquals(ExitStatus.FAILURE, refused.status(), refused.out() + refused.err());
        assertTrue(refused.out().contains("storage: s3://nobody-listens/archive/ FAILED: ")
                && refused.out().contains("did not answer within the retry time (" + ConnectionCheck.TIMEOUT_SECONDS
                + " s): it is down or unreachable, or its endpoint is wrong"), refused.out());
        assertTrue(seconds < 120, "said after " + seconds + " s, the run's retry window is 300 s");
    }

    /** A file system's refusal says what happened to which file: its message is the path alone. */
    @Test
    void aFileSystemRefusalIsSaidInWords() {
        assertEquals("/proc/nope: no such file or folder", ConnectionCheck.reason(
                new java.nio.file.NoSuchFileException("/proc/nope")));
        assertEquals("/data/archive: permission denied", ConnectionCheck.reason(
                new java.nio.file.AccessDeniedException("/data/archive")));
        assertEquals("/data/x: Read-only file system", ConnectionCheck.reason(
                new java.nio.file.FileSystemException("/data/x", null, "Read-only file system")));
    }
}
