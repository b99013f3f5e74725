package io.sluice.audit.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.core.crash.CrashPoints;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.process.ChildProcess;
import io.sluice.storage.backend.StorageBackend;
import io.sluice.storage.backend.TestStorage;
import io.sluice.storage.sink.ArchiveContents;
import io.sluice.storage.sink.CategoryRecords;
import io.sluice.storage.sink.Manifest;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import io.sluice.testkit.SharedS3;
import io.sluice.testkit.TestDirs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A zombie on S3, the case Kafka Connect's S3 sink got wrong (a paused task overwrote a good object). Instance A
 * archives with exactly-once and is held at an exact step of the protocol, then frozen with SIGSTOP there: either it
 * has written a manifest whose commit is not sent yet, or its commit succeeded and it has published one file of the
 * manifest but not the others. Its session expires and instance B takes both partitions, recovers, archives
 * everything and publishes it. Then A resumes at that step: its commit cannot succeed any more (its membership is
 * gone) so its files are never published, or its late publish finds them published by B's recovery and changes
 * nothing. Every offset stays in exactly one visible file throughout; after the partitions' next recovery nothing is
 * left staged or uploading.
 */
@Tag("slow")
class ArchiveZombieTest {

    private static final int PARTITIONS = 2;
    private static final int RECORDS = 1_200;

    @ParameterizedTest(name = "zombie resumes at {0}")
    @ValueSource(strings = {"archive.after-manifest", "archive.mid-publish"})
    void aZombieResumingBeforeItsCommitOrMidPublishMakesNothingVisible(String step) throws Exception {
        KafkaCluster kafka = SharedKafka.cluster();
        String topic = Names.unique("archive-zombie");
        String group = Names.unique("archive-zombie-group");
        kafka.createTopic(topic, PARTITIONS);
        Map<Integer, Long> ends = CategoryRecords.produce(kafka, topic, RECORDS);
        TestStorage storage = TestStorage.s3(SharedS3.server());
        Path dir = TestDirs.newDir("archive-zombie");
        Path thawed = dir.resolve("thawed");

        // A rolls by size, B by age: had A published anything of its own, its files would overlap B's
        ChildProcess a = ArchiveChild.start("zombie-a", dir, List.of("-Dsluice.pause.at=" + step + ":1",
                "-Dsluice.pause.until=" + thawed), kafka.bootstrapServers(), topic, group, storage, "size");
        a.awaitLogLine(l -> l.equals(CrashPoints.PAUSED + step), Duration.ofSeconds(60));
        a.freeze();
        long pending = pendingFiles(storage);
        assertTrue(pending >= 2, "the zombie holds a manifest of several files: " + pending);

        InProcessArchive b = InProcessArchive.start(kafka.bootstrapServers(), topic, group, storage, "age", "zombie-b",
                ends);
        b.awaitAll(ProgressSink.PUBLISHED, Duration.ofSeconds(60));
        ArchiveContents.read(storage).assertExactlyOnce(topic, ends);

        Files.createFile(thawed);
        a.thaw();
        // whatever it does at that step, it is done once it has let go of both partitions
        boolean[] resumed = {false};
        Set<String> released = new HashSet<>();
        a.awaitLogLine(l -> (resumed[0] |= l.startsWith(CrashPoints.PAUSED)) && l.startsWith(ProgressSink.RELEASED)
                && released.add(l) && released.size() == PARTITIONS, Duration.ofSeconds(30));
        ArchiveContents afterZombie = ArchiveContents.read(storage);
        System.out.println("[archive-zombie] resumed at " + step + ", then " + released + ", leaving "
                + afterZombie.staged() + " staged; its commit: " + a.tail().lines()
                .filter(l -> l.contains("commit of [" + topic)).findFirst().orElse("none sent"));
        afterZombie.assertVisibleExactlyOnce(topic, ends);

        assertEquals("STOPPED", b.close());
        a.stop(Duration.ofSeconds(30));
        ArchiveContents.read(storage).assertVisibleExactlyOnce(topic, ends);
        // A gives up what its refused commits named; a commit whose answer it never got (the connection to the
        // coordinator dropped) may have succeeded for all it knows, so those files stay staged until the partition's
        // next recovery, which removes them
        InProcessArchive next = InProcessArchive.start(kafka.bootstrapServers(), topic, group, storage, "age",
                "zombie-c", ends);
        next.awaitAll(ProgressSink.CAUGHT_UP, Duration.ofSeconds(60));
        assertEquals("STOPPED", next.close());
        ArchiveContents.read(storage).assertExactlyOnce(topic, ends);
    }

    /** Files the manifests written so far name: the zombie's first (and perhaps the other partition's). */
    private static long pendingFiles(TestStorage storage) throws Exception {
        try (StorageBackend backend = storage.open()) {
            long files = 0;
            for (String path : backend.list("_sluice/manifests/")) {
                // the freeze may catch the other partition's manifest mid-write: s3proxy's file store lists the
                // write's temporary file (<name>.json-<uuid>) beside the others, and it stays half-written
                if (!path.endsWith(".json")) {
                    continue;
                }
                files += Manifest.fromJson(backend.read(path).orElseThrow(), path).files().size();
            }
            return files;
        }
    }
}
