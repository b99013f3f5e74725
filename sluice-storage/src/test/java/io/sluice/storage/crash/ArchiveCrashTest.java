package io.sluice.storage.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.core.CrashPoints;
import io.sluice.storage.backend.TestStorage;
import io.sluice.storage.sink.ArchiveContents;
import io.sluice.storage.sink.CategoryRecords;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedHdfs;
import io.sluice.testkit.SharedKafka;
import io.sluice.testkit.SharedS3;
import io.sluice.testkit.TestDirs;
import io.sluice.testkit.kafka.KafkaCluster;
import io.sluice.testkit.process.ChildJvm;
import io.sluice.testkit.process.ChildProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A child JVM archiving a topic to local files, S3 or HDFS halts at each named step of the exactly-once protocol in
 * turn, with size rolling and with wall-clock rolling, and is killed at three seeded random moments; a restart then
 * finishes the topic and closes cleanly. Afterwards every offset is in exactly one visible file, nothing is left
 * staged and no upload is left incomplete.
 */
@Tag("slow")
class ArchiveCrashTest {

    private static final int PARTITIONS = 2;
    private static final int RECORDS = 1_200;
    private static final List<String> STORAGES = List.of("s3", "hdfs");
    private static final List<Arguments> POINTS = List.of(
            Arguments.of("archive.after-write", 150),
            Arguments.of("archive.after-seal", 2),
            Arguments.of("archive.after-manifest", 2),
            Arguments.of(CrashPoints.BEFORE_COMMIT, 2),
            Arguments.of(CrashPoints.AFTER_COMMIT_REQUEST, 2),
            Arguments.of(CrashPoints.AFTER_COMMIT_ACK, 2),
            Arguments.of("archive.mid-publish", 2),
            Arguments.of("archive.after-publish", 2));

    static Stream<Arguments> crashPoints() {
        return STORAGES.stream().flatMap(storage -> Stream.of("size", "age").flatMap(rolling -> POINTS.stream()
                .map(p -> Arguments.of(storage, p.get()[0], p.get()[1], rolling))));
    }

    static Stream<Arguments> seeds() {
        return STORAGES.stream().flatMap(storage -> Stream.of(11L, 2026L, 77_777L).map(seed -> Arguments.of(storage, seed)));
    }

    @ParameterizedTest(name = "{0}: {1}:{2} with {3} rolling")
    @MethodSource("crashPoints")
    void aCrashAtANamedStepLeavesEveryOffsetInExactlyOneVisibleFile(String storage, String point, int hit,
            String rolling) throws Exception {
        Scenario s = new Scenario(storage, point.replace('.', '-') + "-" + rolling, rolling);
        ChildProcess child = s.start("-Dsluice.crash.at=" + point + ":" + hit);
        s.lap("started");
        int status = child.exitStatusWithin(Duration.ofSeconds(60)).orElseGet(() -> {
            child.kill();
            throw new AssertionError(point + ":" + hit + " was not reached in 60 s:\n" + child.tail());
        });
        assertEquals(CrashPoints.HALT_STATUS, status, "halted at " + point + "\n" + child.tail());
        s.lap("halted");
        s.finishAndVerify();
    }

    @ParameterizedTest(name = "{0}: seed {1}")
    @MethodSource("seeds")
    void aKillAtASeededRandomMomentLeavesEveryOffsetInExactlyOneVisibleFile(String storage, long seed)
            throws Exception {
        long delay = 200 + new Random(seed).nextInt(1_500);
        System.out.println("[archive-crash] " + storage + " seed " + seed + ": kill -9 after " + delay + " ms");
        Scenario s = new Scenario(storage, "random-" + seed, seed % 2 == 0 ? "size" : "age");
        ChildProcess child = s.start();
        Thread.sleep(delay); // the seeded random moment itself, not a wait for something
        child.kill();
        s.finishAndVerify();
    }

    /** A topic of its own, produced once, archived by a child JVM into a storage of its own. */
    private static final class Scenario {
        final KafkaCluster kafka = SharedKafka.cluster();
        final String topic = Names.unique("archive-crash");
        final String group = Names.unique("archive-crash-group");
        final String rolling;
        final Path dir;
        final TestStorage storage;
        final Map<Integer, Long> ends;
        final String name;
        final StringBuilder laps = new StringBuilder();
        long lapStart = System.nanoTime();

        Scenario(String storageKind, String name, String rolling) throws Exception {
            this.rolling = rolling;
            this.name = storageKind + " " + name;
            kafka.createTopic(topic, PARTITIONS);
            ends = CategoryRecords.produce(kafka, topic, RECORDS);
            lap("produced");
            dir = TestDirs.newDir("archive-crash-" + storageKind + "-" + name);
            storage = switch (storageKind) {
                case "local" -> TestStorage.local(dir.resolve("archive"));
                case "s3" -> TestStorage.s3(SharedS3.server());
                case "hdfs" -> TestStorage.hdfs(SharedHdfs.server());
                default -> throw new IllegalArgumentException(storageKind);
            };
        }

        ChildProcess start(String... jvmOptions) {
            ChildProcess child = ChildJvm.builder("archiver")
                    .classpathOfThisJvm()
                    .jvmOptions(List.of(jvmOptions))
                    .mainClass(ArchiveChild.class.getName())
                    .args(kafka.bootstrapServers(), topic, group, storage.spec(), rolling, "archive-child")
                    .workDir(dir)
                    .build()
                    .start();
            child.awaitLogLine(l -> l.startsWith("SLUICE-READY"), Duration.ofSeconds(60));
            return child;
        }

        /** Restarts the archive, waits until it has written every record, closes it, and checks the storage. */
        void finishAndVerify() throws Exception {
            ChildProcess again = start();
            lap("restarted");
            Set<String> caughtUp = new HashSet<>();
            again.awaitLogLine(l -> l.startsWith(ProgressSink.CAUGHT_UP) && caughtUp.add(l)
                    && caughtUp.size() == ends.size(), Duration.ofSeconds(90));
            lap("caught up");
            again.stop(Duration.ofSeconds(30)); // SIGTERM: the last roll, commit and publish
            lap("closed");
            String closed = again.awaitLogLine(l -> l.startsWith(ArchiveChild.CLOSED), Duration.ofSeconds(5));
            assertTrue(closed.startsWith(ArchiveChild.CLOSED + "STOPPED"), closed + "\n" + again.tail());
            ArchiveContents.read(storage).assertExactlyOnce(topic, ends);
            lap("verified");
            System.out.println("[archive-crash] " + name + ":" + laps);
        }

        /** Where the time goes, printed per case: the suite has a time budget. */
        void lap(String what) {
            long now = System.nanoTime();
            laps.append(String.format(" %s %.1f s,", what, (now - lapStart) / 1e9));
            lapStart = now;
        }
    }
}
