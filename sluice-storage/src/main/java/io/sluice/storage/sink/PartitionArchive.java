package io.sluice.storage.sink;

import io.sluice.core.crash.CrashPoints;
import io.sluice.core.sink.RecordRejectedException;
import io.sluice.core.sink.SinkCheckpoint;
import io.sluice.storage.backend.PendingFile;
import io.sluice.storage.backend.PendingRef;
import io.sluice.storage.backend.StorageBackend;
import io.sluice.storage.codec.Compressors;
import io.sluice.storage.format.FileFormat;
import io.sluice.storage.format.RecordWriter;
import io.sluice.storage.layout.Layout;
import io.sluice.storage.rolling.RollingPolicy;
import io.sluice.storage.value.ValueFields;
import io.sluice.storage.value.ValueReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One partition's files: those open for writing, and those sealed (finished, invisible) until a committed manifest
 * lets them be published.
 *
 * <ul>
 *   <li>{@code next}: the offset after the last record written;
 *   <li>{@code barrier}: every record below it is in a sealed or published file. Open files all roll together, so the
 *       partition's progress is this one offset, and it is what a checkpoint commits.
 * </ul>
 *
 * <p>A storage failure (a full disk, an I/O error, a store down for longer than its retry time) while writing,
 * rolling or publishing poisons the partition: its open files are given up without further storage calls, every
 * later write and checkpoint fails at once, and the error stops the engine, which then commits nothing more for this
 * partition. Records after the last commit are delivered again after a restart; nothing is acknowledged that was not
 * written.
 *
 * <p>The heap its open files hold (backend buffers plus what the format writers report) is summed here, in
 * {@link #recount}, and reported to the sink-wide {@link MemoryPressure}.
 *
 * <p>Threading: one thread at a time (the engine's lane for this partition).
 */
final class PartitionArchive {

    private static final Logger LOG = LoggerFactory.getLogger(PartitionArchive.class);

    /** A record is in an open file. */
    static final String AFTER_WRITE = "archive.after-write";
    /** A roll sealed the open files (finished, staged, invisible). */
    static final String AFTER_SEAL = "archive.after-seal";
    /** A manifest was written; the commit naming it is not sent. */
    static final String AFTER_MANIFEST = "archive.after-manifest";
    /**
     * The commit succeeded and a file of its manifest is published; the others are published side by side, so some
     * may be, some not.
     */
    static final String MID_PUBLISH = "archive.mid-publish";
    /** Every file of a committed manifest is published. */
    static final String AFTER_PUBLISH = "archive.after-publish";

    private final TopicPartition partition;
    private final String topicId;
    private final StorageBackend backend;
    private final Layout layout;
    private final FileFormat format;
    private final RollingPolicy rolling;
    private final boolean exactlyOnce;
    private final ArchiveCounters counters;
    private final MemoryPressure pressure;
    private final StorageCalls storageCalls;
    private final Compressors compressors;
    /** Decodes each value once, for the layout's fields and, when the format needs it, for the writer. */
    private final ValueReader values;
    private final boolean decode;
    /** Tells this instance's manifests from those of any other owner of the partition, past or zombie. */
    private final String manifestWriter = java.util.UUID.randomUUID().toString().substring(0, 8);

    private final Map<String, OpenFile> open = new LinkedHashMap<>();
    private final List<ManifestFile> sealed = new ArrayList<>();
    private final Map<String, List<ManifestFile>> awaitingCommit = new HashMap<>();
    private long next;
    private long barrier;
    private long oldestOpenNanos;
    private IOException broken;
    /**
     * Heap held by the open files. Written by the lane only; read by the consumer thread and other partitions' lanes
     * at any time, so kept apart from the lane-owned map of open files.
     */
    private volatile long buffered;

    private static final class OpenFile {
        final String path;
        final PendingFile pending;
        final RecordWriter writer;
        final long firstOffset;
        long lastOffset;
        /** This file's share of {@code buffered}. */
        long counted;

        OpenFile(String path, PendingFile pending, RecordWriter writer, long firstOffset) {
            this.path = path;
            this.pending = pending;
            this.writer = writer;
            this.firstOffset = firstOffset;
        }
    }

    PartitionArchive(TopicPartition partition, String topicId, StorageBackend backend, Layout layout, FileFormat format,
            RollingPolicy rolling, boolean exactlyOnce, ArchiveCounters counters, MemoryPressure pressure,
            StorageCalls storageCalls, Compressors compressors) {
        this.partition = partition;
        this.topicId = topicId;
        this.backend = backend;
        this.layout = layout;
        this.format = format;
        this.rolling = rolling;
        this.exactlyOnce = exactlyOnce;
        this.counters = counters;
        this.pressure = pressure;
        this.storageCalls = storageCalls;
        this.compressors = compressors;
        this.values = ArchiveSink.valueReader(layout, format);
        this.decode = format.decodesValues() || !layout.fieldPaths().isEmpty();
    }

    /**
     * Finishes what the last commit promised (publishes the files of its manifest, idempotently) and removes every
     * other staged file of this partition: those were never committed.
     */
    void recover(long committedOffset, Optional<String> manifestName) throws IOException {
        next = committedOffset;
        barrier = committedOffset;
        if (manifestName.isPresent()) {
            String path = Manifest.directory(topicId, partition.partition()) + manifestName.get();
            byte[] json = backend.read(path).orElseThrow(() -> new IOException("the committed manifest " + path
                    + " is missing from " + backend.describe() + "; its files cannot be published"));
            for (ManifestFile f : Manifest.fromJson(json, path).files()) {
                backend.publish(new PendingRef(f.path(), f.staging()));
                counters.published.increment();
            }
        }
        backend.discardAll(backend.listStaged(stagingPrefix()));
    }

    void write(ConsumerRecord<byte[], byte[]> record) throws Exception {
        failIfBroken();
        ValueFields value = decode && record.value() != null ? values.read(record.value()) : null;
        String directory = layout.directory(record, value);
        OpenFile file = open.get(directory);
        if (file == null) {
            if (open.size() >= rolling.maxOpenFiles()) {
                counters.boundRolls.increment();
                roll();
            }
            file = openFile(directory, record.offset());
        }
        try {
            file.writer.write(record, value);
        } catch (RecordRejectedException e) {
            if (file.writer.records() == 0) { // opened for this record: give it up, as a layout rejection would
                open.remove(directory);
                uncount(file);
                file.writer.discard();
                file.pending.abort();
            }
            throw e;
        } catch (IOException e) {
            throw poison(file.path, "write", e);
        }
        file.lastOffset = record.offset();
        next = record.offset() + 1;
        CrashPoints.reach(AFTER_WRITE);
        recount(file);
        boolean full = rolling.full(file.writer.bytesWritten(), file.writer.records());
        if (full || pressure.mustRoll(this)) {
            if (!full) {
                counters.pressureRolls.increment();
            }
            roll();
        }
    }

    SinkCheckpoint checkpoint(boolean last) throws IOException {
        failIfBroken();
        if (!open.isEmpty()) {
            if (last || rolling.old(oldestOpenNanos, System.nanoTime())) {
                roll();
            } else if (pressure.mustRoll(this)) {
                counters.pressureRolls.increment(); // this partition holds the most and no write came to roll it
                roll();
            }
        }
        try {
            if (!exactlyOnce) {
                for (ManifestFile f : sealed) {
                    backend.publish(new PendingRef(f.path(), f.staging()));
                    counters.published.increment();
                }
                sealed.clear();
                return new SinkCheckpoint(barrier, "");
            }
            if (sealed.isEmpty()) {
                return new SinkCheckpoint(barrier, "");
            }
            String name = Manifest.name(barrier, manifestWriter);
            Manifest manifest = new Manifest(1, partition.topic(), topicId, partition.partition(), barrier,
                    List.copyOf(sealed));
            backend.writeAtomically(Manifest.directory(topicId, partition.partition()) + name, manifest.toJson());
            CrashPoints.reach(AFTER_MANIFEST);
            awaitingCommit.put(name, List.copyOf(sealed));
            return new SinkCheckpoint(barrier, name);
        } catch (IOException e) {
            throw poison(null, exactlyOnce ? "write the manifest" : "publish", e);
        }
    }

    /**
     * Publishes the committed manifest's files. A failure poisons the partition (the engine does not wait for this
     * call, so the next write or checkpoint reports it and stops the engine); the files stay staged, and the next
     * recovery publishes them, since the commit names their manifest.
     */
    void committed(SinkCheckpoint checkpoint) throws IOException {
        List<ManifestFile> files = awaitingCommit.remove(checkpoint.data());
        if (files == null) {
            return;
        }
        List<StorageCalls.Call<Void>> publications = new ArrayList<>(files.size());
        for (ManifestFile f : files) {
            publications.add(() -> {
                backend.publish(new PendingRef(f.path(), f.staging()));
                counters.published.increment();
                CrashPoints.reach(MID_PUBLISH);
                return null;
            });
        }
        try {
            storageCalls.each(files.stream().map(ManifestFile::path).toList(), publications);
        } catch (StorageCalls.FileFailure e) {
            throw poison(e.path, "publish", e.cause);
        }
        CrashPoints.reach(AFTER_PUBLISH);
        sealed.removeAll(files);
        // earlier manifests whose outcome was unknown: this one carried their files, now published
        awaitingCommit.keySet().removeIf(name -> name.compareTo(checkpoint.data()) < 0);
    }

    /**
     * A commit that certainly failed no longer needs its manifest, but its files stay sealed, for the next manifest:
     * a commit refused during a cooperative rebalance leaves the partition with this member, and the engine moves on
     * from the barrier, so those files are the only copy of their records. Whatever no commit can name any more is
     * given up when the partition closes. A commit whose outcome is unknown may yet be the committed one: its
     * manifest stays awaiting.
     */
    void notCommitted(SinkCheckpoint checkpoint, boolean certain) {
        if (certain) {
            awaitingCommit.remove(checkpoint.data());
        }
    }

    /**
     * Open files are given up (no manifest names them), and so are sealed files that no commit can name: never in a
     * manifest, or only in manifests whose commit certainly failed (a fenced zombie aborts its pending files here).
     * Files of a manifest whose commit outcome is unknown stay staged: the next owner's recovery publishes or removes
     * them.
     */
    void close(boolean lost) {
        try {
            for (OpenFile f : open.values()) {
                f.writer.discard();
                if (broken == null) {
                    f.pending.abort();
                } else {
                    f.pending.abandon();
                }
            }
        } finally {
            forgetOpenFiles();
        }
        Set<ManifestFile> maybeCommitted = new HashSet<>();
        awaitingCommit.values().forEach(maybeCommitted::addAll);
        List<PendingRef> givenUp = sealed.stream().filter(f -> !maybeCommitted.contains(f))
                .map(f -> new PendingRef(f.path(), f.staging())).toList();
        sealed.clear();
        if (broken != null || givenUp.isEmpty()) {
            return; // a failing store gets no more calls: the partition's next recovery removes them
        }
        try {
            backend.discardAll(givenUp);
        } catch (IOException e) {
            // invisible leftovers: the partition's next recovery removes them
            LOG.warn("could not remove {} staged files of {} from {}: {}", givenUp.size(), partition,
                    backend.describe(), e.toString());
        }
    }

    /** Heap held by the open files; any thread. */
    long bufferedBytes() {
        return buffered;
    }

    /** Brings {@code file}'s share of {@link #buffered} up to date: the one place the open files' heap is summed. */
    private void recount(OpenFile file) {
        long now = file.pending.bufferedBytes() + file.writer.bufferedBytes();
        long delta = now - file.counted;
        if (delta != 0) {
            file.counted = now;
            buffered += delta; // volatile, but written by this lane only
            pressure.changed(delta);
        }
    }

    private void uncount(OpenFile file) {
        buffered -= file.counted;
        pressure.changed(-file.counted);
        file.counted = 0;
    }

    private void forgetOpenFiles() {
        open.clear();
        pressure.changed(-buffered);
        buffered = 0;
    }

    private OpenFile openFile(String directory, long firstOffset) throws IOException {
        String path = directory + partition.topic() + "+" + partition.partition() + "+" + firstOffset + format.extension();
        OpenFile file;
        try {
            PendingFile pending = backend.create(path, stagingPrefix());
            try {
                file = new OpenFile(path, pending, format.open(pending.stream(), compressors), firstOffset);
            } catch (IOException e) {
                pending.abandon();
                throw e;
            }
        } catch (IOException e) {
            throw poison(path, "start", e);
        }
        if (open.isEmpty()) {
            oldestOpenNanos = System.nanoTime();
        }
        open.put(directory, file);
        recount(file);
        return file;
    }

    private void roll() throws IOException {
        try {
            rollAll();
        } catch (StorageCalls.FileFailure e) {
            throw poison(e.path, "seal", e.cause);
        }
    }

    /**
     * Seals every open file at the current offset, side by side ({@link StorageCalls}): the partition-wide barrier.
     * The files join {@code sealed} only when all are sealed, so a failure half-way never lets a later manifest list
     * records beyond the barrier.
     */
    private void rollAll() throws StorageCalls.FileFailure {
        List<OpenFile> files = List.copyOf(open.values());
        List<StorageCalls.Call<ManifestFile>> seals = new ArrayList<>(files.size());
        for (OpenFile f : files) {
            seals.add(() -> {
                f.writer.close();
                PendingRef ref = f.pending.finish();
                return new ManifestFile(ref.path(), ref.staging(), f.writer.records(), f.writer.bytesWritten(),
                        f.firstOffset, f.lastOffset);
            });
        }
        List<ManifestFile> sealedNow = storageCalls.each(files.stream().map(f -> f.path).toList(), seals);
        sealed.addAll(sealedNow);
        forgetOpenFiles();
        barrier = next;
        counters.rolls.increment();
        counters.sealedFiles.add(sealedNow.size());
        CrashPoints.reach(AFTER_SEAL);
    }

    private void failIfBroken() throws IOException {
        if (broken != null) {
            throw new IOException("the archive of " + partition + " failed earlier: " + broken.getMessage(), broken);
        }
    }

    /**
     * Marks the partition failed and gives its open files up without further storage calls (the storage just
     * failed; the next recovery removes what is staged). Returns the error to throw: it names the partition, the
     * file, what was being done and the storage's own reason.
     */
    private IOException poison(String path, String action, IOException cause) {
        IOException error = new IOException("cannot " + action + " " + (path == null ? "the archive of " + partition
                : path) + " in " + backend.describe() + " (" + partition + "): " + cause.getMessage()
                + ". The engine stops; nothing after the last commit is acknowledged, and a restart writes it again",
                cause);
        broken = error;
        for (OpenFile f : open.values()) {
            f.writer.discard(); // its compressing task, if any, must not write into what the backend abandons
            try {
                f.pending.abandon();
            } catch (RuntimeException ignored) {
                // already failing; the staged remains are removed at the next recovery
            }
        }
        forgetOpenFiles();
        next = barrier;
        return error;
    }

    private String stagingPrefix() {
        return "_sluice/staging/" + topicId + "/" + partition.partition() + "/";
    }
}
