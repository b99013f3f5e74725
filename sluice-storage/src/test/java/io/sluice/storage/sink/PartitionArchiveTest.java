package io.sluice.storage.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.core.sink.RecordRejectedException;
import io.sluice.core.sink.SinkCheckpoint;
import io.sluice.storage.backend.ForwardingBackend;
import io.sluice.storage.backend.LocalBackend;
import io.sluice.storage.backend.PendingRef;
import io.sluice.storage.backend.StorageBackend;
import io.sluice.storage.backend.TestStorage;
import io.sluice.storage.codec.Codec;
import io.sluice.storage.codec.Compressors;
import io.sluice.storage.format.FileFormat;
import io.sluice.storage.format.FormatConfig;
import io.sluice.storage.format.JsonLinesFormat;
import io.sluice.storage.format.RecordWriter;
import io.sluice.storage.layout.Layout;
import io.sluice.storage.rolling.RollDecision;
import io.sluice.storage.rolling.RollingPolicy;
import io.sluice.storage.value.ValueFields;
import io.sluice.testkit.TestDirs;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** One partition's archive driven step by step, on local files, for interleavings the engine makes rare. */
class PartitionArchiveTest {

    /** Daemon threads, shared by the class's tests. */
    private static final StorageCalls STORAGE_CALLS = new StorageCalls(4);
    private static final Compressors COMPRESSORS = Compressors.offloaded(2);

    private static final TopicPartition PARTITION = new TopicPartition("t", 0);
    private static final String TOPIC_ID = "Xw4uM0Q7T3mJcJgHq9Ykzw";

    private final Path root = TestDirs.newDir("partition-archive");
    private final LocalBackend backend = new LocalBackend(root);

    /**
     * A zombie that lost the partition still writes, rolls and checkpoints, at the same barrier as the new owner's
     * committed manifest. Its manifest must not take the place of the owner's: the next owner recovers from the name
     * in the Kafka commit, and would otherwise publish the zombie's files beside the owner's (duplicates), or fail on
     * files the zombie discarded.
     */
    @Test
    void aZombieCheckpointingAtTheOwnersBarrierNeverReplacesTheCommittedManifest() throws Exception {
        PartitionArchive zombie = opened(5);
        PartitionArchive owner = opened(3); // other rolling, so the zombie's files have other names

        write(zombie, 0, 10);
        write(owner, 0, 10);
        SinkCheckpoint committed = owner.checkpoint(true);
        owner.committed(committed); // the owner's commit succeeded and its files are published
        SinkCheckpoint zombies = zombie.checkpoint(false); // the zombie's commit would be fenced; it is not sent yet
        assertNotEquals(committed.data(), zombies.data(), "two writers, two manifests");

        recoveredAndCommitted(committed); // the next owner
        ArchiveContents.read(TestStorage.local(root)).assertExactlyOnce("t", Map.of(0, 10L));
    }

    /**
     * A zombie whose recovery lists the partition's staged files after the new owner staged its own (frozen past its
     * session, or its store calls held by an outage, between its claim and the listing) never removes them: the new
     * owner's commit names them. The recovery removed what it listed at once, and the owner's publish found its files
     * gone (a review found it).
     */
    @Test
    void aZombieWhoseRecoveryListsTheNewOwnersStagedFilesNeverRemovesThem() throws Exception {
        PartitionArchive owner = opened(3);
        write(owner, 0, 10);
        SinkCheckpoint named = owner.checkpoint(true); // sealed and in a manifest; its commit is under way
        PartitionArchive zombie = archive(5);
        zombie.recover(0, Optional.empty()); // its listing finds the owner's files
        zombie.close(false); // fenced: it never commits, and lets go
        owner.committed(named);
        owner.close(false);
        ArchiveContents.read(TestStorage.local(root)).assertExactlyOnce("t", Map.of(0, 10L));
    }

    /**
     * The engine handed a commit's answer to the partition's current owner by its name (it now drops an answer to an
     * earlier assignment: SinkCommitsTest), so a late answer to a commit an earlier owner in this process sent (before
     * this one listed) could reach this one, with a checkpoint equal to one
     * this owner made (the same offset, no manifest). It proves nothing about this owner's listing (a review): what
     * it listed, the files a newer owner staged, stays.
     */
    @Test
    void aLateAnswerToAnEarlierOwnersCommitRemovesNothingThisOwnerListed() throws Exception {
        PartitionArchive earlier = opened(3);
        SinkCheckpoint answeredLate = earlier.checkpoint(true);
        earlier.close(false);
        PartitionArchive newer = opened(5);
        write(newer, 0, 10);
        SinkCheckpoint named = newer.checkpoint(true); // sealed and in a manifest; its commit is under way
        PartitionArchive zombie = archive(3);
        zombie.recover(0, Optional.empty()); // lists the newer owner's files
        assertEquals(answeredLate, zombie.checkpoint(true), "equal, not the same");
        zombie.committed(answeredLate);
        zombie.close(false);
        newer.committed(named);
        newer.close(false);
        ArchiveContents.read(TestStorage.local(root)).assertExactlyOnce("t", Map.of(0, 10L));
    }

    /** What an owner that died left staged is removed once the next owner's first commit succeeds, not before. */
    @Test
    void aDeadOwnersStagedFilesAreRemovedAtTheNextOwnersFirstCommit() throws Exception {
        PartitionArchive dead = opened(3);
        write(dead, 0, 10);
        dead.checkpoint(true); // its commit was never sent
        PartitionArchive next = archive(3);
        next.recover(0, Optional.empty());
        assertFalse(stagedFiles().isEmpty(), "kept until a commit shows the partition is still this owner's");
        write(next, 0, 10);
        next.committed(next.checkpoint(true));
        next.close(false);
        ArchiveContents.read(TestStorage.local(root)).assertExactlyOnce("t", Map.of(0, 10L));
    }

    /**
     * A removal of a dead owner's leftovers that the store refuses is tried again at the next commit, then no sooner
     * than a minute after: it was tried once, and a member that kept the partition for weeks kept the files as long.
     */
    @Test
    void aRefusedRemovalOfLeftoversIsTriedAgainAtALaterCommit() throws Exception {
        PartitionArchive dead = opened(3);
        write(dead, 0, 10);
        dead.checkpoint(true); // its commit was never sent
        int left = stagedFiles().size();
        java.util.concurrent.atomic.AtomicInteger refusals = new java.util.concurrent.atomic.AtomicInteger(1);
        java.util.concurrent.atomic.AtomicInteger tries = new java.util.concurrent.atomic.AtomicInteger();
        PartitionArchive next = archive(3, 4, new ArchiveCounters(), new ForwardingBackend(backend) {
            @Override
            public void discardAll(List<io.sluice.storage.backend.PendingRef> refs) throws java.io.IOException {
                tries.incrementAndGet();
                if (refusals.getAndDecrement() > 0) {
                    throw new java.io.IOException("access denied for a while");
                }
                super.discardAll(refs);
            }
        });
        next.recover(0, Optional.empty());
        write(next, 0, 3);
        next.committed(next.checkpoint(true));
        assertEquals(1, tries.get());
        assertEquals(left, stagedFiles().size(), "refused: still there");

        write(next, 3, 6);
        next.committed(next.checkpoint(true));
        assertEquals(2, tries.get(), "tried again at the next commit");
        assertEquals(List.of(), stagedFiles(), "removed");
        write(next, 6, 10);
        next.committed(next.checkpoint(true));
        assertEquals(2, tries.get(), "nothing more to remove");
        next.close(false);
        ArchiveContents.read(TestStorage.local(root)).assertExactlyOnce("t", Map.of(0, 10L));
    }

    /**
     * The broker refuses a commit during a cooperative rebalance (RebalanceInProgress: certainly not committed), and
     * the partition stays with this member, which goes on from its barrier: the refused checkpoint's files must go
     * into the next manifest, or their records would never be visible.
     */
    @Test
    void aCommitRefusedWhileThePartitionStaysLosesNothing() throws Exception {
        PartitionArchive archive = opened(3);
        write(archive, 0, 10);
        archive.notCommitted(archive.checkpoint(true), true);
        write(archive, 10, 15);
        SinkCheckpoint next = archive.checkpoint(true);
        archive.committed(next);
        archive.close(false);
        ArchiveContents.read(TestStorage.local(root)).assertExactlyOnce("t", Map.of(0, 15L));
    }

    /**
     * Two checkpoints at one barrier (the second asked while the first's commit is in flight) write the same manifest
     * name. The first refused for certain (a cooperative rebalance), the second committed: its files must be published,
     * and a loss of the partition right after must not discard them, since the group's commit names them. The refusal
     * forgot the second's entry: nothing was published, and a loss then removed files a commit named (a review).
     */
    @Test
    void aCertainRefusalOfACheckpointKeepsALaterOneAtTheSameBarrier() throws Exception {
        PartitionArchive archive = opened(3);
        write(archive, 0, 10); // 0–2, 3–5, 6–8 sealed; 9 open
        SinkCheckpoint first = archive.checkpoint(false);
        SinkCheckpoint second = archive.checkpoint(false);
        assertEquals(first.data(), second.data(), "the same barrier, the same manifest name");
        archive.notCommitted(first, true);
        archive.committed(second);
        ArchiveContents.read(TestStorage.local(root)).assertExactlyOnce("t", Map.of(0, 9L));
        archive.close(true); // lost right after

        recoveredAndCommitted(second);
        ArchiveContents.read(TestStorage.local(root)).assertExactlyOnce("t", Map.of(0, 9L));
    }

    /**
     * A writer that fails for another reason than the storage (here an IllegalStateException; an OutOfMemoryError
     * would do the same) leaves the partition's files half-written: the partition is failed, so that the drain's last
     * checkpoint cannot seal a file short of its records and commit past them. It was not, and the last checkpoint
     * committed offset 6 with offset 5 in no file (a review).
     */
    @Test
    void aWriterThatFailsOtherwiseThanTheStorageFailsThePartition() throws Exception {
        FileFormat jsonl = new JsonLinesFormat(Codec.ZSTD, false, false);
        FileFormat failing = new FileFormat() {
            @Override
            public String extension() {
                return jsonl.extension();
            }

            @Override
            public io.sluice.storage.value.ValueEncoding valueEncoding() {
                return jsonl.valueEncoding();
            }

            @Override
            public boolean decodesValues() {
                return jsonl.decodesValues();
            }

            @Override
            public RecordWriter open(java.io.OutputStream file) throws java.io.IOException {
                RecordWriter writer = jsonl.open(file);
                return new RecordWriter() {
                    @Override
                    public void write(ConsumerRecord<byte[], byte[]> record, ValueFields value) throws
                            java.io.IOException, RecordRejectedException {
                        if (record.offset() == 5) {
                            throw new IllegalStateException("a record the format accepted on arrival was rejected "
                                    + "when written");
                        }
                        writer.write(record, value);
                    }

                    @Override
                    public long bytesWritten() {
                        return writer.bytesWritten();
                    }

                    @Override
                    public long records() {
                        return writer.records();
                    }

                    @Override
                    public void close() throws java.io.IOException {
                        writer.close();
                    }
                };
            }
        };
        PartitionArchive archive = new PartitionArchive(PARTITION, TOPIC_ID, backend,
                new Layout("{topic}/category={value.category}/", null, ZoneOffset.UTC, null), failing,
                new RollDecision(new RollingPolicy(1L << 30, 3, Duration.ofHours(1), 4), Long.MAX_VALUE),
                true, new ArchiveCounters(), new MemoryPressure(List.of()), STORAGE_CALLS, COMPRESSORS);
        archive.recover(0, Optional.empty());
        write(archive, 0, 5);
        IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> archive.write(record(5)));
        assertTrue(thrown.getMessage().startsWith("a record the format accepted"), thrown.getMessage());

        java.io.IOException last = assertThrows(java.io.IOException.class, () -> archive.checkpoint(true));
        assertTrue(last.getMessage().contains("failed while writing offset 5"), last.getMessage());
        archive.close(true);
        assertEquals(List.of(), LocalArchiveFiles.files(root), "nothing committed, nothing visible");

        PartitionArchive next = opened(3); // the restart reads from the last commit (none) and writes it all again
        write(next, 0, 10);
        next.committed(next.checkpoint(true));
        next.close(false);
        ArchiveContents.read(TestStorage.local(root)).assertExactlyOnce("t", Map.of(0, 10L));
    }

    /**
     * Closing (revoked, or lost as a fenced zombie) gives up the files no commit can name any more, but keeps those
     * of a commit whose outcome is unknown: it may have succeeded, and then the next owner publishes them.
     */
    @Test
    void closingKeepsOnlyTheFilesOfACommitWhoseOutcomeIsUnknown() throws Exception {
        PartitionArchive zombie = opened(3);
        write(zombie, 0, 5);
        SinkCheckpoint unknown = zombie.checkpoint(true);
        zombie.notCommitted(unknown, false); // a time-out: in fact the broker took it
        write(zombie, 5, 10);
        zombie.notCommitted(zombie.checkpoint(true), true); // fenced
        zombie.write(record(10)); // open, never sealed
        zombie.close(true);

        recoveredAndCommitted(unknown); // the next owner
        ArchiveContents.read(TestStorage.local(root)).assertExactlyOnce("t", Map.of(0, 5L));
    }

    /**
     * A checkpoint taken while the previous commit is in flight lists that commit's files again (they are not known to
     * be published yet). Each file is published, and counted, once: the stop line said 1,838 files published for
     * 1,454 files. A recovery that finds the committed manifest's files published counts none.
     */
    @Test
    void aFileListedByTwoManifestsIsPublishedAndCountedOnce() throws Exception {
        ArchiveCounters counters = new ArchiveCounters();
        PartitionArchive archive = archive(3, counters);
        archive.recover(0, Optional.empty());
        write(archive, 0, 10); // three files sealed, one open
        SinkCheckpoint first = archive.checkpoint(false);
        write(archive, 10, 15);
        SinkCheckpoint second = archive.checkpoint(true); // the first commit's answer has not come yet
        archive.committed(first);
        archive.committed(second);
        archive.close(false);

        long files = LocalArchiveFiles.files(root).size();
        assertEquals(5, files, "0–2, 3–5, 6–8, 9–11, 12–14");
        assertEquals(files, counters.snapshot().published());
        ArchiveContents.read(TestStorage.local(root)).assertExactlyOnce("t", Map.of(0, 15L));

        ArchiveCounters restarted = new ArchiveCounters();
        archive(3, restarted).recover(second.offset(), Optional.of(second.data()));
        assertEquals(0, restarted.snapshot().published(), "published by the run before");
    }

    /**
     * A record for a folder with no open file is held in memory, not written, until the folder holds more than a file
     * costs (issue 17): the barrier stays, nothing of it is staged, and the roll writes each held folder as one file. A crash before the roll loses
     * nothing that was committed: the next owner reads the held records again.
     */
    @Test
    void aRecordForAFolderWithNoOpenFileIsHeldUntilTheRollWhichWritesTheFolderAsOneFile() throws Exception {
        ArchiveCounters counters = new ArchiveCounters();
        PartitionArchive archive = archive(1_000, 2, counters);
        archive.recover(0, Optional.empty());
        writeCategories(archive, 0, 0, "a", "b", "c", "d", "c", "d", "a", "c"); // c and d held
        assertEquals(0, counters.snapshot().evictions(), "small records never take a busy folder's file");
        assertEquals(new SinkCheckpoint(0, ""), archive.checkpoint(false), "the barrier has not moved");
        assertEquals(List.of(), stagedFiles(), "nothing staged: no folder holds enough for a file");
        assertTrue(archive.bufferedBytes() > 0, "the held records count: " + archive.bufferedBytes());

        PartitionArchive next = archive(1_000, 2, new ArchiveCounters()); // a crash: the next owner takes over
        next.recover(0, Optional.empty());
        writeCategories(next, 0, 0, "a", "b", "c", "d", "c", "d", "a", "c");
        SinkCheckpoint rolled = next.checkpoint(true);
        assertEquals(8, rolled.offset());
        next.committed(rolled);
        next.close(false);
        List<String> files = LocalArchiveFiles.files(root).stream().map(f -> root.relativize(f).toString()).sorted()
                .toList();
        assertEquals(4, files.size(), "one file per folder: " + files);
        assertTrue(files.get(2).contains("category=c/") && files.get(2).endsWith("+0+2.jsonl.zst"),
                "the held folder's file is named by its first offset: " + files);
        ArchiveContents.read(TestStorage.local(root)).assertExactlyOnce("t", Map.of(0, 8L));
        assertEquals(List.of(), stagedFiles(), "nothing staged after a clean close");
    }

    /**
     * While a roll seals its open files and writes the held folders as files, the sink says how many it is sealing (the
     * run's line says it where it said "not catching up"); none before or after.
     */
    @Test
    void aRollSaysHowManyFilesItIsSealingWhileItRuns() throws Exception {
        ArchiveCounters counters = new ArchiveCounters();
        List<Long> sealingAtCreate = new java.util.ArrayList<>();
        PartitionArchive archive = archive(1_000, 2, counters, new ForwardingBackend(backend) {
            @Override
            public io.sluice.storage.backend.PendingFile create(String path, String stagingPrefix)
                    throws java.io.IOException {
                sealingAtCreate.add(counters.sealingNow());
                return super.create(path, stagingPrefix);
            }
        });
        archive.recover(0, Optional.empty());
        writeCategories(archive, 0, 0, "a", "b", "c", "d", "c", "d", "a", "c"); // every folder held: too small
        assertEquals(List.of(), sealingAtCreate, "no file before the roll");
        archive.committed(archive.checkpoint(true));
        assertEquals(List.of(4L, 4L, 4L, 4L), sealingAtCreate, "each held folder's file made in a roll of 4");
        assertEquals(0, counters.sealingNow(), "the roll is over");
        archive.close(false);
    }

    /**
     * A held folder that grows past what a file costs gets one, and at the open-file bound takes the least recently
     * written file's place: that file is sealed alone and parked, in no manifest until the next roll, whose barrier is
     * above every record it holds; a crash before the roll leaves it staged and unnamed, and the next owner's recovery
     * removes it.
     */
    @Test
    void aHeldFolderThatTurnsBusyEvictsTheLeastRecentlyWrittenFile() throws Exception {
        ArchiveCounters counters = new ArchiveCounters();
        PartitionArchive archive = archive(1_000, 2, counters);
        archive.recover(0, Optional.empty());
        int big = 40 << 10; // two of them pass RollDecision.MIN_HELD_TO_OPEN
        writeCategories(archive, 0, big, "a", "a", "b", "b", "c", "c"); // a and b get files, the second c evicts a
        assertEquals(1, counters.snapshot().evictions());
        assertEquals(new SinkCheckpoint(0, ""), archive.checkpoint(false), "the barrier has not moved");
        assertEquals(List.of(), LocalArchiveFiles.files(root), "nothing visible");
        assertEquals(3, stagedFiles().size(), "a parked, b and c open");

        PartitionArchive next = archive(1_000, 2, new ArchiveCounters()); // the crash
        next.recover(0, Optional.empty());
        assertEquals(3, stagedFiles().size(), "what no commit names, removed at the next owner's first commit");
        writeCategories(next, 0, big, "a", "a", "b", "b", "c", "c");
        next.committed(next.checkpoint(true));
        assertEquals(3, LocalArchiveFiles.files(root).size(), "a 0-1, b 2-3, c 4-5");
        ArchiveContents.read(TestStorage.local(root)).assertExactlyOnce("t", Map.of(0, 6L));

        writeCategories(next, 6, big, "d", "d", "e", "e", "f", "f"); // f evicts d: parked, given up at close
        next.close(false);
        assertEquals(List.of(), stagedFiles(), "nothing staged after a clean close");
        assertEquals(3, LocalArchiveFiles.files(root).size(), "nothing more visible");
    }

    /**
     * A held record is checked by the format on arrival: one a newline-delimited raw file cannot hold (a value with a
     * newline) is rejected by the write that brings it, where the engine dead-letters it, and the roll then writes the
     * held folder's other records, never failing on it.
     */
    @Test
    void aHeldRecordTheFormatCannotTakeIsRejectedOnArrivalNotAtTheRoll() throws Exception {
        PartitionArchive archive = new PartitionArchive(PARTITION, TOPIC_ID, backend,
                new Layout("{topic}/category={value.category}/", null, ZoneOffset.UTC, null),
                FormatConfig.builder().format("raw").build().fileFormat(),
                new RollDecision(new RollingPolicy(1L << 30, 1_000, Duration.ofHours(1), 4), Long.MAX_VALUE),
                true, new ArchiveCounters(), new MemoryPressure(List.of()), STORAGE_CALLS, COMPRESSORS);
        archive.recover(0, Optional.empty());
        writeCategories(archive, 0, 0, "a", "a");
        RecordRejectedException rejected = assertThrows(RecordRejectedException.class, () -> archive.write(
                new ConsumerRecord<>("t", 0, 2, null, "{\"category\":\"a\",\n\"i\":2}".getBytes(
                        StandardCharsets.UTF_8))));
        assertTrue(rejected.getMessage().contains("newline at byte 16"), rejected.getMessage());
        writeCategories(archive, 3, 0, "a");
        SinkCheckpoint rolled = archive.checkpoint(true);
        assertEquals(4, rolled.offset());
        archive.committed(rolled);
        archive.close(false);
        List<Path> files;
        try (var walk = Files.walk(root.resolve("t"))) {
            files = walk.filter(Files::isRegularFile).toList();
        }
        assertEquals(1, files.size(), "the held folder in one file: " + files);
        try (var in = Codec.ZSTD.decompress(Files.newInputStream(files.get(0)))) {
            assertEquals(3, new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().count(),
                    "the three records the format took");
        }
    }

    /**
     * Publishing a committed manifest's files fails with an error the storage calls do not know (a store client's
     * runtime error; the local store's refusal of a path outside its root was one): the manifest was dropped from
     * those awaiting before its files were published, so closing the partition discarded the only copy of records
     * the commit had acknowledged (found by a new user: "stopped cleanly", 0 files published, every offset missing).
     * The files stay staged, and the recovery from the committed manifest publishes them.
     */
    @Test
    void filesACommitNamesButThatFailedToPublishStayStagedForTheRecovery() throws Exception {
        PartitionArchive archive = archive(3, 4, new ArchiveCounters(), new FailingPublish(backend));
        archive.recover(0, Optional.empty());
        write(archive, 0, 10);
        SinkCheckpoint committed = archive.checkpoint(true);
        assertThrows(IllegalStateException.class, () -> archive.committed(committed));
        archive.close(false);
        assertTrue(!stagedFiles().isEmpty(), "the committed manifest's files are still staged");

        archive(3).recover(committed.offset(), Optional.of(committed.data())); // the restart
        ArchiveContents.read(TestStorage.local(root)).assertExactlyOnce("t", Map.of(0, 10L));
    }

    /**
     * A file the committed manifest names that something removed after its commit (a lifecycle rule, a person) is
     * gone from both its places: the recovery publishes the others and goes on, where it failed every restart with
     * "a restart resumes" (a new user's run). Its records are missing from the archive, which verify says.
     */
    @Test
    void aCommittedFileRemovedByHandDoesNotStopTheRecovery() throws Exception {
        PartitionArchive archive = opened(3);
        write(archive, 0, 10);
        SinkCheckpoint committed = archive.checkpoint(true);
        archive.committed(committed);
        archive.close(false);
        List<Path> published;
        try (var walk = Files.walk(root.resolve("t"))) {
            published = walk.filter(Files::isRegularFile).sorted().toList();
        }
        assertEquals(4, published.size(), published.toString());
        Files.delete(published.get(0));

        PartitionArchive next = archive(3);
        next.recover(committed.offset(), Optional.of(committed.data())); // it threw before
        write(next, 10, 13);
        next.committed(next.checkpoint(true));
        try (var walk = Files.walk(root.resolve("t"))) {
            assertEquals(4, walk.filter(Files::isRegularFile).count(), "the rest published, and the next file");
        }
    }

    /** A manifest the store refuses says what could not be written, and of which partition, in words. */
    @Test
    void aManifestTheStoreRefusesIsSaidInWords() throws Exception {
        PartitionArchive archive = archive(3, 4, new ArchiveCounters(), new ForwardingBackend(backend) {
            @Override
            public void writeAtomically(String path, byte[] content) throws java.io.IOException {
                throw new java.io.IOException("permission denied: " + path);
            }
        });
        archive.recover(0, Optional.empty());
        write(archive, 0, 10);
        Exception refused = assertThrows(Exception.class, () -> archive.checkpoint(true));
        assertTrue(refused.getMessage().startsWith("cannot write the manifest of t-0 in "), refused.getMessage());
    }

    /** The local store, whose publishing fails the way a store client's bug or runtime error would. */
    private static final class FailingPublish extends ForwardingBackend {

        FailingPublish(StorageBackend store) {
            super(store);
        }

        @Override
        public boolean publish(PendingRef ref) {
            throw new IllegalStateException("the store's client failed while publishing " + ref.path());
        }
    }

    private List<Path> stagedFiles() throws Exception {
        Path staging = root.resolve("_sluice/staging");
        if (!Files.exists(staging)) {
            return List.of();
        }
        try (var walk = Files.walk(staging)) {
            return walk.filter(Files::isRegularFile).toList();
        }
    }

    /** Records at {@code from} on, one per category, each with {@code padding} bytes of text beside it. */
    /**
     * A folder name longer than a file system takes (a value of 300 characters): the record's own rejection, where the
     * partition's next checkpoint failed with "File name too long", every start the same, whatever on-failure said.
     */
    @Test
    void aFolderNameTooLongForTheFileSystemRejectsItsRecordAlone() throws Exception {
        PartitionArchive archive = opened(10);
        writeCategories(archive, 0, 0, "click");
        RecordRejectedException rejected = assertThrows(RecordRejectedException.class,
                () -> writeCategories(archive, 1, 0, "c".repeat(300)));
        assertTrue(rejected.getMessage().startsWith("the folder name the path template makes of this record ('category="
                + "c".repeat(31) + "…') is 309 bytes, and " + backend.describe() + " takes at most 255 in one name"),
                rejected.getMessage());
        writeCategories(archive, 2, 0, "view");
        archive.committed(archive.checkpoint(true));
        assertEquals(2, LocalArchiveFiles.files(root).size(), "click and view: " + LocalArchiveFiles.files(root));
    }

    /**
     * A path whose folders each fit in a name, but not all of them with the staged file's UUID in one: staged under
     * its hash, where the whole path in the staged name failed the run with "File name too long" (a new user's run).
     */
    @Test
    void aPathTooLongForOneStagedNameIsStagedUnderItsHashAndPublishedWhereItBelongs() throws Exception {
        PartitionArchive archive = opened(3);
        String category = "c".repeat(220);
        writeCategories(archive, 0, 0, category, category, category);
        SinkCheckpoint checkpoint = archive.checkpoint(true);
        archive.committed(checkpoint);
        archive.close(false);
        assertEquals(List.of(root.resolve("t/category=" + category + "/t+0+0.jsonl.zst")), LocalArchiveFiles.files(root));
        ArchiveContents.read(TestStorage.local(root)).assertExactlyOnce("t", Map.of(0, 3L));
    }

    private static void writeCategories(PartitionArchive archive, long from, int padding, String... categories)
            throws Exception {
        String pad = "x".repeat(padding);
        for (int i = 0; i < categories.length; i++) {
            long offset = from + i;
            archive.write(new ConsumerRecord<>("t", 0, offset, ("k" + offset).getBytes(StandardCharsets.UTF_8),
                    ("{\"category\":\"" + categories[i] + "\",\"i\":" + offset + ",\"pad\":\"" + pad + "\"}")
                            .getBytes(StandardCharsets.UTF_8)));
        }
    }

    /** The next owner of the partition after {@code committed}, and its first commit (nothing new to write). */
    private void recoveredAndCommitted(SinkCheckpoint committed) throws Exception {
        PartitionArchive next = archive(3);
        next.recover(committed.offset(), Optional.of(committed.data()));
        next.committed(next.checkpoint(true));
        next.close(false);
    }

    /** A fresh owner of the partition, from offset 0 with nothing committed. */
    private PartitionArchive opened(int recordsPerFile) throws Exception {
        PartitionArchive archive = archive(recordsPerFile);
        archive.recover(0, Optional.empty());
        return archive;
    }

    private PartitionArchive archive(int recordsPerFile) {
        return archive(recordsPerFile, new ArchiveCounters());
    }

    private PartitionArchive archive(int recordsPerFile, ArchiveCounters counters) {
        return archive(recordsPerFile, 4, counters);
    }

    private PartitionArchive archive(int recordsPerFile, int maxOpenFiles, ArchiveCounters counters) {
        return archive(recordsPerFile, maxOpenFiles, counters, backend);
    }

    private PartitionArchive archive(int recordsPerFile, int maxOpenFiles, ArchiveCounters counters,
            StorageBackend store) {
        return new PartitionArchive(PARTITION, TOPIC_ID, store,
                new Layout("{topic}/category={value.category}/", null, ZoneOffset.UTC, null),
                new JsonLinesFormat(Codec.ZSTD, false, false),
                new RollDecision(new RollingPolicy(1L << 30, recordsPerFile, Duration.ofHours(1), maxOpenFiles),
                        Long.MAX_VALUE),
                true, counters, new MemoryPressure(List.of()), STORAGE_CALLS, COMPRESSORS);
    }

    private static void write(PartitionArchive archive, long from, long to) throws Exception {
        for (long offset = from; offset < to; offset++) {
            archive.write(record(offset));
        }
    }

    private static ConsumerRecord<byte[], byte[]> record(long offset) {
        return new ConsumerRecord<>("t", 0, offset, ("k" + offset).getBytes(StandardCharsets.UTF_8),
                ("{\"category\":\"click\",\"i\":" + offset + "}").getBytes(StandardCharsets.UTF_8));
    }
}
