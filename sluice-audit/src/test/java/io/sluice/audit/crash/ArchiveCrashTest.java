package io.sluice.audit.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.core.crash.CrashPoints;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.local.process.ChildProcess;
import io.sluice.storage.backend.TestStorage;
import io.sluice.storage.sink.CategoryRecords;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedHdfs;
import io.sluice.testkit.SharedKafka;
import io.sluice.testkit.SharedS3;
import io.sluice.testkit.TestDirs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A child JVM archiving a topic, one record in 25 of which it rejects, halts at each named step of the exactly-once
 * protocol in turn, with size rolling and with wall-clock rolling (and at the steps of manifest retention and of the
 * dead letters' transaction, with size rolling; and where records are held and files evicted at the open-file bound),
 * is killed at four seeded random moments after its first commit, and three times in a row;
 * a restart (in the test JVM) then archives the rest and closes cleanly. Afterwards ({@link ExactlyOnceCheck}) the
 * audit of the topic against the storage is clean, DuckDB counts every record not rejected once in the visible
 * files, a read_committed reader of the dead-letter topic finds every rejected one once, nothing is left staged and
 * no upload is left incomplete. Every case runs on local files, S3 and HDFS at once: each storage has its own topic,
 * group and child JVMs, so the waits of one overlap the work of the others.
 */
@Tag("slow")
@Execution(ExecutionMode.CONCURRENT) // two cases at a time (junit-platform.properties): each has its own topics
class ArchiveCrashTest {

    private static final int PARTITIONS = 2;
    private static final int RECORDS = 1_200;
    /** Every 25th record has no category, which the archive's path template needs: 48 dead letters. */
    private static final int REJECT_EVERY = 25;
    private static final int REJECTED = RECORDS / REJECT_EVERY;
    /**
     * With {@code evict} rolling, every 20th record is up to 48 hours late, held with its hour's others; each record
     * carries 4 KB, so the held third category soon evicts a file.
     */
    private static final int LATE_EVERY = 20;
    private static final int EVICT_PADDING = 4_000;
    /**
     * With {@code size} rolling (100 records per file), records of about 1 KB: a directory's first 64 KiB are held,
     * the rest go into the file it then gets, so a roll seals open files and writes held ones. With {@code age}
     * rolling, records of a few bytes: every directory is held until its roll.
     */
    private static final int SIZE_PADDING = 1_000;
    private static final List<String> STORAGES = List.of("local", "s3", "hdfs");
    /** The group member of the crashing child and of the restart: static membership, no wait for its session. */
    private static final String MEMBER = "archiver";
    /** Manifest retention: a summary of the older manifests is written, none of them removed yet. */
    private static final String RETENTION_AFTER_SUMMARY = "archive.after-summary";
    /** Manifest retention: one of the manifests the summary holds is removed, the others not. */
    private static final String RETENTION_MID_REMOVAL = "archive.mid-manifest-removal";

    static Stream<Arguments> crashPoints() {
        List<Arguments> points = List.of(
                Arguments.of("archive.after-write", 150),
                Arguments.of("archive.after-seal", 2),
                Arguments.of("archive.after-manifest", 2),
                Arguments.of(CrashPoints.BEFORE_COMMIT, 2),
                Arguments.of(CrashPoints.AFTER_COMMIT_REQUEST, 2),
                Arguments.of(CrashPoints.AFTER_COMMIT_ACK, 2),
                Arguments.of("archive.mid-publish", 2),
                Arguments.of("archive.after-publish", 2),
                Arguments.of(RETENTION_AFTER_SUMMARY, 1),
                Arguments.of(RETENTION_MID_REMOVAL, 1),
                Arguments.of(CrashPoints.DEAD_LETTER_AFTER_SEND, 1),
                Arguments.of(CrashPoints.DEAD_LETTER_BEFORE_COMMIT, 1));
        // age rolling seals everything of a partition in one roll or two in the child's life: too few manifests to
        // fold before the last commit, so the retention's steps are crashed at with size rolling; a commit's dead
        // letters, the commit itself and what follows its acknowledgement do not depend on how files roll (the roll
        // is over by the time the commit is asked), so their steps are too (the suite has a time budget). What age
        // rolling changes is where the roll happens (in the checkpoint, not after a write): the steps up to the
        // manifest, and the publication that the next checkpoint's commit allows.
        Set<Object> sizeOnly = Set.of(RETENTION_AFTER_SUMMARY, RETENTION_MID_REMOVAL,
                CrashPoints.DEAD_LETTER_AFTER_SEND, CrashPoints.DEAD_LETTER_BEFORE_COMMIT, CrashPoints.BEFORE_COMMIT,
                CrashPoints.AFTER_COMMIT_REQUEST, "archive.after-publish");
        // held records and evictions (issue 17): files written from held records at a roll, and files sealed alone
        // and parked, joining the next roll's manifest; the steps from the eviction to the publication of the
        // manifest that names the parked files
        Stream<Arguments> evictions = Stream.of(Arguments.of("archive.after-evict", 3),
                Arguments.of("archive.after-held-batch", 2),
                Arguments.of("archive.after-seal", 1), Arguments.of("archive.after-manifest", 1),
                Arguments.of(CrashPoints.AFTER_COMMIT_ACK, 1), Arguments.of("archive.mid-publish", 3))
                .map(p -> Arguments.of(p.get()[0], p.get()[1], "evict"));
        return Stream.concat(Stream.of("size", "age").flatMap(rolling -> points.stream()
                .filter(p -> rolling.equals("size") || !sizeOnly.contains(p.get()[0]))
                .map(p -> Arguments.of(p.get()[0], p.get()[1], rolling))), evictions);
    }

    @ParameterizedTest(name = "{0}:{1} with {2} rolling, on local files, S3 and HDFS")
    @MethodSource("crashPoints")
    void aCrashAtANamedStepLeavesEveryOffsetInExactlyOneVisibleFile(String point, int hit, String rolling)
            throws Exception {
        onEveryStorage(storage -> {
            Scenario s = new Scenario(storage, point.replace('.', '-') + "-" + rolling, rolling);
            ChildProcess child = s.start("-Dsluice.crash.at=" + point + ":" + hit);
            int status = child.exitStatusWithin(Duration.ofSeconds(60)).orElseGet(() -> {
                child.kill();
                throw new AssertionError(point + ":" + hit + " was not reached in 60 s:\n" + child.tail());
            });
            assertEquals(CrashPoints.HALT_STATUS, status, "halted at " + point + "\n" + child.tail());
            s.lap("halted");
            s.finishAndVerify();
        });
    }

    @ParameterizedTest(name = "seed {0}, on local files, S3 and HDFS")
    @ValueSource(longs = {11L, 2026L, 77_777L, 30L})
    void aKillAtASeededRandomMomentLeavesEveryOffsetInExactlyOneVisibleFile(long seed) throws Exception {
        // within 0.6 s of the first commit, while the rest is still being written or committed
        long delay = new Random(seed).nextInt(600);
        String rolling = seed % 3 == 0 ? "evict" : seed % 2 == 0 ? "size" : "age";
        System.out.println("[archive-crash] seed " + seed + ": kill -9 " + delay + " ms after the first commit, "
                + rolling + " rolling");
        onEveryStorage(storage -> {
            Scenario s = new Scenario(storage, "random-" + seed, rolling);
            ChildProcess child = s.start();
            // counted from the first commit: from the start, the kill landed before the group join had ended (no child
            // had committed in a CI run), and so never inside the commit protocol the case is about
            child.awaitLogLine(l -> l.startsWith(ProgressSink.COMMITTED), Duration.ofSeconds(60));
            s.lap("first commit");
            Thread.sleep(delay); // the seeded random moment itself, not a wait for something
            child.kill();
            s.lap("killed with " + partitionsSaying(child, ProgressSink.CAUGHT_UP) + " of " + PARTITIONS
                    + " partitions caught up, " + partitionsSaying(child, ProgressSink.PUBLISHED) + " all published");
            s.finishAndVerify();
        });
    }

    /**
     * Kill -9 at three seeded random moments in a row, each child taking over from the last one's crash: commits
     * with dead letters in flight are cut at arbitrary points, not only at the named ones.
     */
    @ParameterizedTest(name = "seed {0}, three kills in a row, on local files, S3 and HDFS")
    @ValueSource(longs = {4_711L})
    void killsInARowLeaveEveryOffsetInExactlyOneVisibleFileOrDeadLetter(long seed) throws Exception {
        onEveryStorage(storage -> {
            Random random = new Random(seed);
            Scenario s = new Scenario(storage, "kill-loop-" + seed, "size");
            for (int kill = 1; kill <= 3; kill++) {
                long delay = 200 + random.nextInt(1_000);
                ChildProcess child = s.start();
                // from its first commit, as above; a child that finds everything committed commits nothing more
                child.awaitLogLine(l -> l.startsWith(ProgressSink.COMMITTED) || l.startsWith(ProgressSink.CAUGHT_UP),
                        Duration.ofSeconds(60));
                Thread.sleep(delay); // the seeded random moment itself, not a wait for something
                child.kill();
                s.lap("killed after " + delay + " ms");
            }
            s.finishAndVerify();
        });
    }

    /** How many partitions the child had said {@code what} of ({@link ProgressSink}) when it died. */
    private static long partitionsSaying(ChildProcess child, String what) throws java.io.IOException {
        try (Stream<String> lines = Files.lines(child.logFile())) {
            return lines.filter(l -> l.startsWith(what)).distinct().count();
        }
    }

    private interface StorageCase {
        void run(String storage) throws Exception;
    }

    /** Runs {@code c} on every storage in parallel; fails with every storage's failure, each named. */
    private static void onEveryStorage(StorageCase c) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(STORAGES.size());
        try {
            Map<String, Future<?>> runs = new LinkedHashMap<>();
            for (String storage : STORAGES) {
                runs.put(storage, pool.submit(() -> {
                    c.run(storage);
                    return null;
                }));
            }
            List<Throwable> failures = new ArrayList<>();
            StringBuilder message = new StringBuilder();
            for (Map.Entry<String, Future<?>> run : runs.entrySet()) {
                try {
                    run.getValue().get();
                } catch (ExecutionException e) {
                    failures.add(e.getCause());
                    message.append("\n[").append(run.getKey()).append("] ").append(e.getCause());
                }
            }
            if (!failures.isEmpty()) {
                AssertionError error = new AssertionError("failed on " + failures.size() + " of " + STORAGES.size()
                        + " storages:" + message);
                failures.forEach(error::addSuppressed);
                throw error;
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** A topic of its own, produced once, archived by child JVMs into a storage of its own. */
    private static final class Scenario {
        final KafkaCluster kafka = SharedKafka.cluster();
        final String topic = Names.unique("archive-crash");
        final String group = Names.unique("archive-crash-group");
        final String name;
        final String rolling;
        final Path dir;
        final TestStorage storage;
        final Map<Integer, Long> ends;
        final StringBuilder laps = new StringBuilder();
        long lapStart = System.nanoTime();

        Scenario(String storageKind, String name, String rolling) throws Exception {
            this.name = storageKind + " " + name;
            this.rolling = rolling;
            kafka.createTopic(topic, PARTITIONS);
            kafka.createTopic(ArchiveChild.deadLetterTopic(topic), 1);
            ends = CategoryRecords.produce(kafka, topic, RECORDS, REJECT_EVERY, rolling.equals("evict") ? LATE_EVERY : 0,
                    switch (rolling) {
                        case "evict" -> EVICT_PADDING;
                        case "size" -> SIZE_PADDING;
                        default -> 0;
                    });
            dir = TestDirs.newDir("archive-crash-" + storageKind + "-" + name);
            storage = switch (storageKind) {
                case "local" -> TestStorage.local(dir.resolve("archive"));
                case "s3" -> TestStorage.s3(SharedS3.server());
                case "hdfs" -> TestStorage.hdfs(SharedHdfs.server());
                default -> throw new IllegalArgumentException(storageKind);
            };
            lap("produced");
        }

        ChildProcess start(String... jvmOptions) {
            ChildProcess child = ArchiveChild.start(MEMBER, dir, List.of(jvmOptions), kafka.bootstrapServers(),
                    topic, group, storage, rolling);
            lap("started");
            return child;
        }

        /**
         * Restarts the archive in this JVM as the same group member, waits until it has written every record, closes
         * it (the last roll, commit and publish, as on shutdown), and audits and counts the archive.
         */
        void finishAndVerify() throws Exception {
            InProcessArchive again = InProcessArchive.start(kafka.bootstrapServers(), topic, group, storage, rolling,
                    MEMBER, ends);
            lap("restarted");
            again.awaitAll(ProgressSink.CAUGHT_UP, Duration.ofSeconds(90));
            lap("caught up");
            assertEquals("STOPPED", again.close(), "a clean close after recovery");
            lap("closed");
            ExactlyOnceCheck.assertExactlyOnce(kafka.clientProperties(Listener.PLAINTEXT), topic, group, storage,
                    RECORDS, ArchiveChild.deadLetterTopic(topic), REJECTED, dir.resolve("check"));
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
