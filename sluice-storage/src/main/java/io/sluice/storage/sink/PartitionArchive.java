package io.sluice.storage.sink;

import io.sluice.core.CrashPoints;
import io.sluice.core.sink.RecordRejectedException;
import io.sluice.core.sink.SinkCheckpoint;
import io.sluice.storage.backend.PendingFile;
import io.sluice.storage.backend.PendingRef;
import io.sluice.storage.backend.StorageBackend;
import io.sluice.storage.format.FileFormat;
import io.sluice.storage.format.RecordWriter;
import io.sluice.storage.json.JsonScan;
import io.sluice.storage.json.MalformedJsonException;
import io.sluice.storage.layout.Layout;
import io.sluice.storage.rolling.RollingPolicy;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;
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
 * <p>A write that fails on storage (a full disk, an I/O error) poisons the partition: its open files are discarded,
 * and the error stops the engine, which then commits nothing beyond {@code barrier}. Records after it are delivered
 * again after a restart; nothing is acknowledged that was not written.
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
    /** The commit succeeded and one file of its manifest is published, the rest not. */
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
    private final LongAdder boundRolls;
    private final LongAdder published;
    private final boolean scanJson;
    /** Tells this instance's manifests from those of any other owner of the partition, past or zombie. */
    private final String manifestWriter = java.util.UUID.randomUUID().toString().substring(0, 8);

    private final Map<String, OpenFile> open = new LinkedHashMap<>();
    private final List<ManifestFile> sealed = new ArrayList<>();
    private final Map<String, List<ManifestFile>> awaitingCommit = new HashMap<>();
    private long next;
    private long barrier;
    private long oldestOpenNanos;
    private IOException broken;
    /** Read by the engine's consumer thread at any time, so kept apart from the lane-owned map of open files. */
    private volatile long buffered;

    private static final class OpenFile {
        final PendingFile pending;
        final RecordWriter writer;
        final long firstOffset;
        long lastOffset;

        OpenFile(PendingFile pending, RecordWriter writer, long firstOffset) {
            this.pending = pending;
            this.writer = writer;
            this.firstOffset = firstOffset;
        }
    }

    PartitionArchive(TopicPartition partition, String topicId, StorageBackend backend, Layout layout, FileFormat format,
            RollingPolicy rolling, boolean exactlyOnce, LongAdder boundRolls, LongAdder published) {
        this.partition = partition;
        this.topicId = topicId;
        this.backend = backend;
        this.layout = layout;
        this.format = format;
        this.rolling = rolling;
        this.exactlyOnce = exactlyOnce;
        this.boundRolls = boundRolls;
        this.published = published;
        this.scanJson = format.needsJson() || !layout.jsonPaths().isEmpty();
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
                published.increment();
            }
        }
        backend.discardAll(backend.listStaged(stagingPrefix()));
    }

    void write(ConsumerRecord<byte[], byte[]> record) throws Exception {
        if (broken != null) {
            throw new IOException("the archive of " + partition + " failed earlier: " + broken.getMessage(), broken);
        }
        JsonScan scan = null;
        if (scanJson && record.value() != null) {
            try {
                scan = JsonScan.scan(record.value(), layout.jsonPaths());
            } catch (MalformedJsonException e) {
                throw new RecordRejectedException("the value is not JSON: " + e.getMessage(), e);
            }
        }
        String directory = layout.directory(record, scan);
        try {
            OpenFile file = open.get(directory);
            if (file == null) {
                if (open.size() >= rolling.maxOpenFiles()) {
                    boundRolls.increment();
                    rollAll();
                }
                file = openFile(directory, record.offset());
            }
            file.writer.write(record, scan);
            file.lastOffset = record.offset();
            next = record.offset() + 1;
            CrashPoints.reach(AFTER_WRITE);
            if (rolling.full(file.writer.bytesWritten(), file.writer.records())) {
                rollAll();
            }
        } catch (IOException e) {
            poison(e);
            throw e;
        }
    }

    SinkCheckpoint checkpoint(boolean last) throws IOException {
        if (broken == null && !open.isEmpty() && (last || rolling.old(oldestOpenNanos, System.nanoTime()))) {
            try {
                rollAll();
            } catch (IOException e) {
                poison(e);
                throw e;
            }
        }
        if (!exactlyOnce) {
            for (ManifestFile f : sealed) {
                backend.publish(new PendingRef(f.path(), f.staging()));
                published.increment();
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
    }

    void committed(SinkCheckpoint checkpoint) throws IOException {
        List<ManifestFile> files = awaitingCommit.remove(checkpoint.data());
        if (files == null) {
            return;
        }
        for (ManifestFile f : files) {
            backend.publish(new PendingRef(f.path(), f.staging()));
            published.increment();
            CrashPoints.reach(MID_PUBLISH);
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
        for (OpenFile f : open.values()) {
            f.pending.abort();
        }
        open.clear();
        countBuffers();
        Set<ManifestFile> maybeCommitted = new HashSet<>();
        awaitingCommit.values().forEach(maybeCommitted::addAll);
        List<PendingRef> givenUp = sealed.stream().filter(f -> !maybeCommitted.contains(f))
                .map(f -> new PendingRef(f.path(), f.staging())).toList();
        sealed.clear();
        try {
            backend.discardAll(givenUp);
        } catch (IOException e) {
            // invisible leftovers: the partition's next recovery removes them
            LOG.warn("could not remove {} staged files of {} from {}: {}", givenUp.size(), partition,
                    backend.describe(), e.toString());
        }
    }

    long bufferedBytes() {
        return buffered;
    }

    private void countBuffers() {
        long bytes = 0;
        for (OpenFile f : open.values()) {
            bytes += f.pending.bufferedBytes();
        }
        buffered = bytes;
    }

    private OpenFile openFile(String directory, long firstOffset) throws IOException {
        String path = directory + partition.topic() + "+" + partition.partition() + "+" + firstOffset + format.extension();
        PendingFile pending = backend.create(path, stagingPrefix());
        OpenFile file = new OpenFile(pending, format.open(pending.stream()), firstOffset);
        if (open.isEmpty()) {
            oldestOpenNanos = System.nanoTime();
        }
        open.put(directory, file);
        countBuffers();
        return file;
    }

    /** Seals every open file at the current offset: the partition-wide barrier. */
    private void rollAll() throws IOException {
        for (OpenFile f : open.values()) {
            f.writer.close();
            PendingRef ref = f.pending.finish();
            sealed.add(new ManifestFile(ref.path(), ref.staging(), f.writer.records(), f.writer.bytesWritten(),
                    f.firstOffset, f.lastOffset));
        }
        open.clear();
        countBuffers();
        barrier = next;
        CrashPoints.reach(AFTER_SEAL);
    }

    private void poison(IOException e) {
        broken = e;
        for (OpenFile f : open.values()) {
            try {
                f.pending.abort();
            } catch (RuntimeException ignored) {
                // already failing; the staged remains are removed at the next recovery
            }
        }
        open.clear();
        countBuffers();
        next = barrier;
    }

    private String stagingPrefix() {
        return "_sluice/staging/" + topicId + "/" + partition.partition() + "/";
    }
}
