package io.sluice.storage.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.core.sink.SinkCheckpoint;
import io.sluice.storage.backend.ForwardingBackend;
import io.sluice.storage.backend.LocalBackend;
import io.sluice.storage.backend.StorageBackend;
import io.sluice.storage.backend.TestStorage;
import io.sluice.storage.codec.Codec;
import io.sluice.storage.codec.Compressors;
import io.sluice.storage.format.JsonLinesFormat;
import io.sluice.storage.layout.Layout;
import io.sluice.storage.rolling.RollDecision;
import io.sluice.storage.rolling.RollingPolicy;
import io.sluice.testkit.TestDirs;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Manifests below the committed one are folded into summaries and removed: a long run keeps a bounded number of them,
 * the committed manifest stays for recovery, and every published file stays named by a manifest or a summary (what
 * the audit needs to tell the archive's files from strangers).
 */
class ManifestRetentionTest {

    private static final StorageCalls STORAGE_CALLS = new StorageCalls(2);
    private static final TopicPartition PARTITION = new TopicPartition("t", 0);
    private static final String TOPIC_ID = "Xw4uM0Q7T3mJcJgHq9Ykzw";
    private static final int FOLD_AFTER = 2;

    private final Path root = TestDirs.newDir("manifest-retention");
    private final LocalBackend backend = new LocalBackend(root);

    @Test
    void aLongRunKeepsFewManifestsAndEveryPublishedFileStaysNamed() throws Exception {
        PartitionArchive archive = archive();
        archive.recover(0, Optional.empty());
        SinkCheckpoint last = null;
        int commits = 40;
        for (int i = 0; i < commits; i++) {
            for (long offset = 3L * i; offset < 3L * i + 3; offset++) {
                archive.write(record(offset));
            }
            last = archive.checkpoint(true);
            archive.committed(last);
        }
        archive.close(false);

        Set<String> manifests = new TreeSet<>();
        Set<String> summaries = new TreeSet<>();
        Set<String> named = new HashSet<>();
        for (String path : backend.list(Manifest.directory(TOPIC_ID, 0))) {
            String name = path.substring(path.lastIndexOf('/') + 1);
            (Manifest.isSummary(name) ? summaries : manifests).add(name);
            Manifest.fromJson(backend.read(path).orElseThrow(), path).files().forEach(f -> named.add(f.path()));
        }
        assertTrue(manifests.contains(last.data()), "the committed manifest stays for recovery: " + manifests);
        assertTrue(manifests.size() <= FOLD_AFTER + 1, commits + " commits, " + manifests.size() + " manifests left: "
                + manifests);
        assertTrue(!summaries.isEmpty() && summaries.size() <= ManifestRetention.SUMMARIES_BEFORE_MERGE,
                "summaries are folded together too: " + summaries);

        Set<String> published = new HashSet<>();
        for (Path f : LocalArchiveFiles.files(root)) {
            published.add(root.relativize(f).toString().replace('\\', '/'));
        }
        assertEquals(commits, published.size(), "one file per commit");
        assertEquals(published, named, "every published file is named by a manifest or a summary, nothing else is");

        archive().recover(last.offset(), Optional.of(last.data())); // the next owner, from the committed manifest
        ArchiveContents.read(TestStorage.local(root)).assertExactlyOnce("t", Map.of(0, 3L * commits));
    }

    @Test
    void nothingIsFoldedBeforeThereAreEnoughManifestsBelowTheCommittedOne() throws Exception {
        PartitionArchive archive = archive();
        archive.recover(0, Optional.empty());
        for (int i = 0; i < FOLD_AFTER; i++) {
            archive.write(record(i));
            archive.committed(archive.checkpoint(true));
        }
        List<String> names = backend.list(Manifest.directory(TOPIC_ID, 0));
        assertEquals(FOLD_AFTER, names.size(), "one manifest below the committed one is kept as it is: " + names);
        assertTrue(names.stream().noneMatch(p -> Manifest.isSummary(p.substring(p.lastIndexOf('/') + 1))), names.toString());
    }

    /**
     * Summaries fold level by level, and those of the top level are never read again: the old rule folded every
     * summary together once there were 8, so each eighth fold read and rewrote the partition's whole history.
     */
    @Test
    void summariesFoldLevelByLevelAndTheTopLevelIsNeverReadAgain() throws Exception {
        int topLevel = 3;
        List<String> read = new java.util.ArrayList<>();
        ForwardingBackend watched = new ForwardingBackend(backend) {
            @Override
            public Optional<byte[]> read(String path) throws java.io.IOException {
                read.add(path.substring(path.lastIndexOf('/') + 1));
                return super.read(path);
            }
        };
        PartitionPaths paths = new PartitionPaths(PARTITION, TOPIC_ID);
        ManifestRetention retention = new ManifestRetention(paths, watched, "w", FOLD_AFTER, topLevel);
        // a manifest per commit, each naming one file; the commit names the next one, so all before it fold
        int commits = 2 * FOLD_AFTER * 8 * 8 + 40; // two top-level summaries and more
        Set<String> files = new HashSet<>();
        for (int i = 0; i <= commits; i++) {
            String file = "t/f" + i + ".jsonl";
            files.add(file);
            String name = Manifest.name(i + 1L, "w");
            watched.writeAtomically(paths.manifests() + name, new Manifest(1, "t", TOPIC_ID, 0, i + 1L,
                    List.of(new ManifestFile(file, "", 1, 10, i, i))).toJson());
            retention.written(name);
            read.clear();
            retention.committed(name);
            assertTrue(read.stream().noneMatch(n -> Manifest.summaryLevel(n) == topLevel),
                    "commit " + i + " read a top-level summary: " + read);
        }

        Map<Integer, Integer> byLevel = new java.util.TreeMap<>();
        Set<String> named = new HashSet<>();
        for (String path : backend.list(paths.manifests())) {
            String name = path.substring(path.lastIndexOf('/') + 1);
            byLevel.merge(Manifest.summaryLevel(name), 1, Integer::sum);
            Manifest.fromJson(backend.read(path).orElseThrow(), path).files().forEach(f -> named.add(f.path()));
        }
        assertEquals(files, named, "every file stays named by a manifest or a summary");
        assertEquals(2, byLevel.get(topLevel), "two top-level summaries, each of 128 manifests: " + byLevel);
        for (int level = 1; level < topLevel; level++) {
            assertTrue(byLevel.getOrDefault(level, 0) < ManifestRetention.SUMMARIES_BEFORE_MERGE,
                    "level " + level + " is folded on: " + byLevel);
        }
        assertTrue(byLevel.get(0) <= FOLD_AFTER + 1, "manifests: " + byLevel);
    }

    /**
     * An owner dies inside a fold above level 1, at each of its steps (its summary not written yet; written, none of
     * its inputs removed; some removed; all but the last), and the next owner folds on: every file stays named at
     * every step, and the leftovers are folded away. A death is the owner's store failing for good from that call on,
     * which leaves the storage as a halt there would.
     */
    @ParameterizedTest(name = "dies at the level-2 fold''s call {0}")
    @ValueSource(ints = {0, 1, 2, 5, 8})
    void anOwnerThatDiesInAFoldAboveLevelOneLosesNoEntryAndTheNextFoldsOn(int deathAt) throws Exception {
        int topLevel = 3;
        PartitionPaths paths = new PartitionPaths(PARTITION, TOPIC_ID);
        // calls of the first level-2 fold: 0 the write of its summary, 1..8 the removals of its inputs
        int[] foldCalls = {-1};
        boolean[] dead = {false};
        ForwardingBackend dying = new ForwardingBackend(backend) {
            @Override
            public void writeAtomically(String path, byte[] bytes) throws java.io.IOException {
                if (Manifest.summaryLevel(path.substring(path.lastIndexOf('/') + 1)) == 2 && foldCalls[0] < 0) {
                    foldCalls[0] = 0;
                }
                step();
                super.writeAtomically(path, bytes);
            }

            @Override
            public void delete(String path) throws java.io.IOException {
                if (foldCalls[0] >= 0 && Manifest.summaryLevel(path.substring(path.lastIndexOf('/') + 1)) == 1) {
                    foldCalls[0]++;
                }
                step();
                super.delete(path);
            }

            private void step() throws java.io.IOException {
                if (!dead[0] && foldCalls[0] == deathAt) {
                    dead[0] = true;
                }
                if (dead[0]) {
                    throw new java.io.IOException("the owner died here");
                }
            }
        };
        Set<String> files = new HashSet<>();
        ManifestRetention first = new ManifestRetention(paths, dying, "w1", FOLD_AFTER, topLevel);
        int i = 0;
        while (!dead[0]) {
            commit(first, dying, paths, "w1", i++, files);
            assertTrue(i < 200, "the first level-2 fold never came");
        }
        assertEquals(files, named(paths), "every file is named right after the death");

        ManifestRetention next = new ManifestRetention(paths, backend, "w2", FOLD_AFTER, topLevel);
        int end = i + 2 * FOLD_AFTER * 8 * 8;
        for (; i < end; i++) {
            commit(next, backend, paths, "w2", i, files);
            assertEquals(files, named(paths), "commit " + i);
        }
        Map<Integer, Integer> byLevel = new java.util.TreeMap<>();
        for (String path : backend.list(paths.manifests())) {
            byLevel.merge(Manifest.summaryLevel(path.substring(path.lastIndexOf('/') + 1)), 1, Integer::sum);
        }
        for (int level = 1; level < topLevel; level++) {
            assertTrue(byLevel.getOrDefault(level, 0) < ManifestRetention.SUMMARIES_BEFORE_MERGE,
                    "level " + level + " is folded on after the death: " + byLevel);
        }
    }

    /** Writes commit {@code i}'s manifest, naming one file, and tells {@code retention} that it was committed. */
    private static void commit(ManifestRetention retention, StorageBackend store, PartitionPaths paths, String writer,
            int i, Set<String> files) throws java.io.IOException {
        String file = "t/f" + i + ".jsonl";
        String name = Manifest.name(i + 1L, writer);
        store.writeAtomically(paths.manifests() + name, new Manifest(1, "t", TOPIC_ID, 0, i + 1L,
                List.of(new ManifestFile(file, "", 1, 10, i, i))).toJson());
        files.add(file);
        retention.written(name);
        retention.committed(name);
    }

    /** The files every manifest and summary of the partition name together. */
    private Set<String> named(PartitionPaths paths) throws java.io.IOException {
        Set<String> named = new HashSet<>();
        for (String path : backend.list(paths.manifests())) {
            Manifest.fromJson(backend.read(path).orElseThrow(), path).files().forEach(f -> named.add(f.path()));
        }
        return named;
    }

    private PartitionArchive archive() {
        return new PartitionArchive(PARTITION, TOPIC_ID, backend,
                new Layout("{topic}/category={value.category}/", null, ZoneOffset.UTC, null),
                new JsonLinesFormat(Codec.ZSTD, false, false),
                new RollDecision(new RollingPolicy(1L << 30, 3, Duration.ofHours(1), 4), Long.MAX_VALUE),
                true, new ArchiveCounters(), new MemoryPressure(List.of()), STORAGE_CALLS, Compressors.INLINE,
                FOLD_AFTER);
    }

    private static ConsumerRecord<byte[], byte[]> record(long offset) {
        return new ConsumerRecord<>("t", 0, offset, ("k" + offset).getBytes(StandardCharsets.UTF_8),
                ("{\"category\":\"click\",\"i\":" + offset + "}").getBytes(StandardCharsets.UTF_8));
    }
}
