package io.sluice.storage.sink;

import io.sluice.core.crash.CrashPoints;
import io.sluice.core.sink.SinkCheckpoint;
import io.sluice.storage.backend.CommittedFileGoneException;
import io.sluice.storage.backend.PendingRef;
import io.sluice.storage.backend.StorageBackend;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The commit side of one partition's archive: the sealed files (finished, invisible) until a committed manifest lets
 * them be published. It writes the manifest a checkpoint's commit names, publishes after the commit, recovers what
 * the last commit promised when the partition opens, and gives up what no commit can name any more; the manifests
 * older than the committed one are folded into summaries ({@link ManifestRetention}). At least once (no manifests), it
 * publishes at the checkpoint instead.
 *
 * <p>Threading: one thread at a time (the engine's lane for this partition).
 */
final class SealedFiles {

    private static final Logger LOG = LoggerFactory.getLogger(SealedFiles.class);

    /** A manifest was written; the commit naming it is not sent. */
    static final String AFTER_MANIFEST = "archive.after-manifest";
    /**
     * The commit succeeded and a file of its manifest is published; the others are published side by side, so some
     * may be, some not.
     */
    static final String MID_PUBLISH = "archive.mid-publish";
    /** Every file of a committed manifest is published. */
    static final String AFTER_PUBLISH = "archive.after-publish";

    private final PartitionPaths paths;
    private final StorageBackend backend;
    private final boolean exactlyOnce;
    private final ArchiveCounters counters;
    private final StorageCalls storageCalls;
    /** Tells this instance's manifests from those of any other owner of the partition, past or zombie. */
    private final String manifestWriter = UUID.randomUUID().toString().substring(0, 8);
    private final ManifestRetention retention;

    /** What earlier owners left staged, as the recovery listed it; removed after a commit of this owner. */
    private final Leftovers leftovers;
    private final List<ManifestFile> sealed = new ArrayList<>();
    private final Map<String, List<ManifestFile>> awaitingCommit = new HashMap<>();
    /**
     * The checkpoint that last wrote each awaiting manifest. Two checkpoints at one barrier write the same name (the
     * second asked while the first's commit is in flight): a certain refusal of the first must not forget the
     * second's entry, or the second's commit published nothing and a loss of the partition then discarded files the
     * group's commit names (a review).
     */
    private final Map<String, SinkCheckpoint> writtenBy = new HashMap<>();

    /** @param foldManifestsAfter see {@link ManifestRetention}: how many manifests below the committed one are folded */
    SealedFiles(PartitionPaths paths, StorageBackend backend, boolean exactlyOnce, ArchiveCounters counters,
            StorageCalls storageCalls, int foldManifestsAfter) {
        this.paths = paths;
        this.backend = backend;
        this.exactlyOnce = exactlyOnce;
        this.counters = counters;
        this.storageCalls = storageCalls;
        this.retention = new ManifestRetention(paths, backend, manifestWriter, foldManifestsAfter);
        this.leftovers = new Leftovers(paths.partition().toString());
    }

    /**
     * Finishes what the last commit promised (publishes the files of its manifest, idempotently), and lists every other
     * staged file of this partition to remove once this owner's first commit succeeds ({@link #committed}): those were
     * never committed. Not now: this owner may already be a zombie (frozen past its session, or its lane held by a
     * store outage while the partition moved), and a listing made then can hold files a newer owner staged, which a
     * commit of that owner names; removing them lost their records (a review found it). A commit that succeeds proves
     * the partition was still this owner's after the listing ({@link Leftovers}), so every file listed was a former
     * owner's. The store names each leftover exactly at the listing ({@link StorageBackend#listStaged}): an S3 upload
     * whose ID its marker never received is found then, by time, before this owner starts one of the same path.
     *
     * <p>A file of the manifest that is neither staged nor published was removed by something else after the commit
     * (no crash of the archiver leaves one so): it is said, with the offsets it held, and the partition goes on. Its
     * records are gone from the archive whatever the archiver does; stopping on it stopped every restart on it, with
     * no way on (a new user's run), and an archive whose old files a lifecycle rule removes would stop the same way.
     */
    void recover(Optional<String> manifestName) throws IOException {
        if (manifestName.isPresent()) {
            String path = paths.manifests() + manifestName.get();
            byte[] json = backend.read(path).orElseThrow(() -> new IOException("the committed manifest " + path
                    + " is missing from " + backend.describe() + "; its files cannot be published"));
            for (ManifestFile f : Manifest.fromJson(json, path).files()) {
                try {
                    publish(f);
                } catch (CommittedFileGoneException e) {
                    LOG.warn("{} of {}, which the last commit's manifest names, is gone: it was removed after its "
                            + "commit (by a lifecycle rule or a person?), and its records, offsets {} to {}, are no "
                            + "longer in the archive. The archive goes on without them; sluice verify lists them as "
                            + "missing. Restore the file if there is a copy of it.", f.path(), backend.describe(),
                            f.firstOffset(), f.lastOffset());
                }
            }
        }
        leftovers.listed(backend.listStaged(paths.staging()));
    }

    /** Files a roll sealed, all at once: the roll's barrier holds only when every one of them is here. */
    void add(List<ManifestFile> files) {
        sealed.addAll(files);
    }

    /**
     * Exactly once, writes the manifest of every sealed file not known to be published, up to {@code barrier}, and
     * returns the checkpoint naming it; at least once, publishes the sealed files.
     */
    SinkCheckpoint checkpoint(long barrier) throws StorageFailure {
        SinkCheckpoint made = checkpointAt(barrier);
        leftovers.made(made);
        return made;
    }

    private SinkCheckpoint checkpointAt(long barrier) throws StorageFailure {
        try {
            if (!exactlyOnce) {
                for (ManifestFile f : sealed) {
                    publish(f);
                }
                sealed.clear();
                return new SinkCheckpoint(barrier, "");
            }
            if (sealed.isEmpty()) {
                return new SinkCheckpoint(barrier, "");
            }
            String name = Manifest.name(barrier, manifestWriter);
            Manifest manifest = new Manifest(1, paths.partition().topic(), paths.topicId(),
                    paths.partition().partition(), barrier, List.copyOf(sealed));
            backend.writeAtomically(paths.manifests() + name, manifest.toJson());
            retention.written(name);
            CrashPoints.reach(AFTER_MANIFEST);
            awaitingCommit.put(name, List.copyOf(sealed));
            SinkCheckpoint made = new SinkCheckpoint(barrier, name);
            writtenBy.put(name, made);
            return made;
        } catch (IOException e) {
            throw new StorageFailure(exactlyOnce ? "write the manifest" : "publish the files", null, e);
        }
    }

    /**
     * Publishes the committed manifest's files. A failure poisons the partition (the engine does not wait for this
     * call, so the next write or checkpoint reports it and stops the engine); the files stay staged, and the next
     * recovery publishes them, since the commit names their manifest.
     */
    void committed(SinkCheckpoint checkpoint) throws StorageFailure {
        publishCommitted(checkpoint);
        // after publishing, so that the commit's files are visible first whatever the removal takes
        leftovers.committed(checkpoint, backend);
    }

    private void publishCommitted(SinkCheckpoint checkpoint) throws StorageFailure {
        // the manifest stays awaiting until its files are published: should publishing fail, whatever way, close()
        // must keep them staged for the recovery that publishes them, since the commit names them
        List<ManifestFile> listed = awaitingCommit.get(checkpoint.data());
        if (listed == null) {
            return;
        }
        // a manifest lists every sealed file not known to be published, so one written while an earlier commit was in
        // flight lists that commit's files again: those published since are no longer sealed, and are not again
        Set<ManifestFile> stillSealed = new HashSet<>(sealed);
        List<ManifestFile> files = listed.stream().filter(stillSealed::contains).toList();
        List<StorageCalls.Call<Void>> publications = new ArrayList<>(files.size());
        for (ManifestFile f : files) {
            publications.add(() -> {
                publish(f);
                CrashPoints.reach(MID_PUBLISH);
                return null;
            });
        }
        storageCalls.each("publish", files.stream().map(ManifestFile::path).toList(), publications);
        CrashPoints.reach(AFTER_PUBLISH);
        sealed.removeAll(files);
        // this manifest, and earlier ones whose outcome was unknown: this one carried their files, now published
        awaitingCommit.keySet().removeIf(name -> name.compareTo(checkpoint.data()) <= 0);
        writtenBy.keySet().retainAll(awaitingCommit.keySet());
        retention.committed(checkpoint.data());
    }

    /**
     * A commit that certainly failed no longer needs its manifest, but its files stay sealed, for the next manifest:
     * a commit refused during a cooperative rebalance leaves the partition with this member, and the engine moves on
     * from the barrier, so those files are the only copy of their records. Whatever no commit can name any more is
     * given up when the partition closes. A commit whose outcome is unknown may yet be the committed one: its
     * manifest stays awaiting.
     */
    void notCommitted(SinkCheckpoint checkpoint, boolean certain) {
        // by identity: a later checkpoint at the same barrier wrote the same name, and its commit may yet come
        if (certain && writtenBy.get(checkpoint.data()) == checkpoint) {
            awaitingCommit.remove(checkpoint.data());
            writtenBy.remove(checkpoint.data());
        }
    }

    /**
     * Gives up the sealed files that no commit can name: never in a manifest, or only in manifests whose commit
     * certainly failed (a fenced zombie aborts its pending files here). Files of a manifest whose commit outcome is
     * unknown stay staged: the next owner's recovery publishes or removes them.
     */
    void close(boolean storageFailed) {
        Set<ManifestFile> maybeCommitted = new HashSet<>();
        awaitingCommit.values().forEach(maybeCommitted::addAll);
        List<PendingRef> givenUp = sealed.stream().filter(f -> !maybeCommitted.contains(f))
                .map(ManifestFile::ref).toList();
        sealed.clear();
        if (storageFailed || givenUp.isEmpty()) {
            return; // a failing store gets no more calls: the partition's next recovery removes them
        }
        try {
            backend.discardAll(givenUp);
        } catch (IOException e) {
            // invisible leftovers: the partition's next recovery removes them
            LOG.warn("could not remove {} staged files of {} from {}: {}", givenUp.size(), paths.partition(),
                    backend.describe(), e.toString());
        }
    }

    /** Counts the file only when this call made it visible: a recovery republishes what the last run published. */
    private void publish(ManifestFile f) throws IOException {
        if (backend.publish(f.ref())) {
            counters.published();
        }
    }
}
