package io.sluice.storage.sink;

import io.sluice.core.crash.CrashPoints;
import io.sluice.storage.backend.StorageBackend;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.NavigableMap;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps one partition's manifests few. Recovery needs only the manifest the last commit names; the audit needs to know
 * every file a manifest ever named (a visible file that none names was not published by the archive). So once a commit
 * succeeded, the manifests that end below the committed one are no longer needed one by one: when there are
 * {@code foldAfter} of them, they are <em>folded</em> into a summary of level 1 ({@link Manifest#summaryName}, the same
 * shape, listing every file they listed, without the staging references), and removed. Summaries are folded in turn,
 * as in a log-structured merge: {@link #SUMMARIES_BEFORE_MERGE} of one level into one of the next, up to
 * {@link #TOP_LEVEL}. So a partition keeps at most about {@code foldAfter} manifests and that many summaries of each
 * level below the top, a file entry is rewritten at most {@link #TOP_LEVEL} times, and no fold reads more than a
 * top-level summary's worth, however long the archive runs.
 *
 * <p>Crash safety: the summary is written (atomically) before anything it holds is removed, and only what was read
 * into it is removed, so every entry is in some manifest or summary at every step; a crash between the two leaves
 * both, which readers take together (the same entries twice). The committed manifest, and any manifest ending at or
 * after it (checkpoints in flight), are never folded. Another writer folding at the same time (a zombie whose last
 * commit succeeded) removes only what it read into its own summary.
 *
 * <p>Threading: one thread at a time (the engine's lane for this partition).
 */
final class ManifestRetention {

    private static final Logger LOG = LoggerFactory.getLogger(ManifestRetention.class);

    /** The summary of a fold is written; nothing it holds is removed yet. */
    static final String AFTER_SUMMARY = "archive.after-summary";
    /** A fold removed one of the manifests (or summaries) its summary holds; the others are still there. */
    static final String MID_MANIFEST_REMOVAL = "archive.mid-manifest-removal";

    /** Summaries of one level are folded into one of the next once there are this many. */
    static final int SUMMARIES_BEFORE_MERGE = 8;
    /**
     * Summaries of this level are never folded again: each holds the entries of 16 x 8^3 = 8,192 manifests at the
     * default {@code foldAfter}, and folding them in turn would read and rewrite ever larger files (once every 8 folds
     * the whole partition's history, which a long run made hundreds of MB: a fold reads its inputs into the lane's
     * heap, outside the memory budget). Above it a partition gains a summary every 8,192 commits with files.
     */
    static final int TOP_LEVEL = 4;

    private final PartitionPaths paths;
    private final StorageBackend backend;
    private final String writer;
    private final int foldAfter;
    private final int topLevel;
    /** The partition's manifests (not summaries) by name, with their end offsets; null until listed. */
    private NavigableMap<String, Long> manifests;
    private List<String> summaries;

    /**
     * @param writer    the token of this owner of the partition, in the names of its summaries as in its manifests'
     * @param foldAfter how many manifests below the committed one are folded at once; 0 never folds
     */
    ManifestRetention(PartitionPaths paths, StorageBackend backend, String writer, int foldAfter) {
        this(paths, backend, writer, foldAfter, TOP_LEVEL);
    }

    /** @param topLevel the level of summaries that are never folded again (tests lower it) */
    ManifestRetention(PartitionPaths paths, StorageBackend backend, String writer, int foldAfter, int topLevel) {
        if (foldAfter < 0) {
            throw new IllegalArgumentException("manifests are folded after 1 or more, or never (0), not " + foldAfter);
        }
        this.paths = paths;
        this.backend = backend;
        this.writer = writer;
        this.foldAfter = foldAfter;
        this.topLevel = topLevel;
    }

    /** A manifest this owner wrote. */
    void written(String name) {
        if (manifests != null) {
            Manifest.endOffsetOf(name).ifPresent(end -> manifests.put(name, end));
        }
    }

    /**
     * The commit naming {@code committedName} succeeded and its files are published: folds the manifests ending below
     * it when there are enough. A failure is logged, not thrown: nothing is lost (the summary comes before the
     * removals), the manifests are only kept longer, and the next fold lists them again.
     */
    void committed(String committedName) {
        OptionalLong committedEnd = Manifest.endOffsetOf(committedName);
        if (foldAfter == 0 || committedEnd.isEmpty()) {
            return;
        }
        try {
            if (manifests == null) {
                list();
            }
            List<String> below = manifests.entrySet().stream().filter(m -> m.getValue() < committedEnd.getAsLong())
                    .map(m -> m.getKey()).toList();
            if (below.size() >= foldAfter) {
                fold(below);
            }
        } catch (IOException e) {
            manifests = null;
            LOG.warn("could not fold the older manifests of {} in {} (they are kept, and folded later): {}",
                    paths.partition(), backend.describe(), e.toString());
        }
    }

    /**
     * Folds {@code below} into a summary of level 1, then, level by level, {@link #SUMMARIES_BEFORE_MERGE} summaries of
     * one level into one of the next, up to the top level.
     */
    private void fold(List<String> below) throws IOException {
        merge(below, 1);
        for (int level = 1; level < topLevel; level++) {
            int at = level;
            List<String> same = summaries.stream().filter(n -> Manifest.summaryLevel(n) == at).toList();
            if (same.size() < SUMMARIES_BEFORE_MERGE) {
                return;
            }
            merge(same, level + 1);
        }
    }

    /** Writes what {@code inputs} list as one summary of {@code level}, then removes the inputs it read. */
    private void merge(List<String> inputs, int level) throws IOException {
        Set<ManifestFile> files = new LinkedHashSet<>();
        List<String> read = new ArrayList<>();
        long end = -1;
        Manifest last = null;
        for (String name : inputs) {
            String path = paths.manifests() + name;
            var json = backend.read(path);
            if (json.isEmpty()) {
                continue; // folded meanwhile by another writer, into a summary of its own
            }
            last = Manifest.fromJson(json.get(), path);
            for (ManifestFile f : last.files()) {
                // the staging reference served the publication, which is done: without it, the entries an owner and
                // a zombie (or two attempts) made for one file merge
                files.add(new ManifestFile(f.path(), "", f.records(), f.bytes(), f.firstOffset(), f.lastOffset()));
            }
            end = Math.max(end, last.endOffset());
            read.add(name);
        }
        manifests.keySet().removeAll(inputs);
        summaries.removeAll(inputs);
        if (last == null) {
            return;
        }
        String summary = Manifest.summaryName(end, writer, level);
        backend.writeAtomically(paths.manifests() + summary, new Manifest(last.version(), last.topic(),
                last.topicId(), last.partition(), end, List.copyOf(files)).toJson());
        summaries.add(summary);
        CrashPoints.reach(AFTER_SUMMARY);
        for (String name : read) {
            if (!name.equals(summary)) { // an input of the same name was just written over with more
                backend.delete(paths.manifests() + name);
                CrashPoints.reach(MID_MANIFEST_REMOVAL);
            }
        }
    }

    private void list() throws IOException {
        manifests = new TreeMap<>();
        summaries = new ArrayList<>();
        for (String path : backend.list(paths.manifests())) {
            String name = path.substring(path.lastIndexOf('/') + 1);
            OptionalLong end = Manifest.endOffsetOf(name);
            if (end.isEmpty()) {
                continue; // the temporary file of an atomic write
            }
            if (Manifest.isSummary(name)) {
                summaries.add(name);
            } else {
                manifests.put(name, end.getAsLong());
            }
        }
    }
}
