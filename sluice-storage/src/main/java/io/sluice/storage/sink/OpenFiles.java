package io.sluice.storage.sink;

import io.sluice.core.crash.CrashPoints;
import io.sluice.core.sink.RecordRejectedException;
import io.sluice.storage.backend.PendingFile;
import io.sluice.storage.backend.PendingRef;
import io.sluice.storage.backend.StorageBackend;
import io.sluice.storage.codec.Compressors;
import io.sluice.storage.format.FileFormat;
import io.sluice.storage.format.RecordWriter;
import io.sluice.storage.layout.Layout;
import io.sluice.storage.rolling.RollDecision;
import io.sluice.storage.rolling.RollTrigger;
import io.sluice.storage.value.ValueFields;
import io.sluice.storage.value.ValueReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * The write side of one partition's archive: its open files, one per directory of the layout, staged invisibly, and
 * the roll that seals them all at one offset when the {@link RollDecision} says so, handing them to the commit side
 * ({@link SealedFiles}).
 *
 * <ul>
 *   <li>{@code next}: the offset after the last record written;
 *   <li>{@code barrier}: every record below it is in a sealed or published file. Open files all roll together, so the
 *       partition's progress is this one offset, and it is what a checkpoint commits.
 * </ul>
 *
 * <p>The heap its open files hold (backend buffers plus what the format writers report) is summed here, in
 * {@link #recount}, and reported to the sink-wide {@link MemoryPressure}.
 *
 * <p>Threading: one thread at a time (the engine's lane for this partition); {@link #bufferedBytes} from any thread.
 */
final class OpenFiles {

    /** A record is in an open file. */
    static final String AFTER_WRITE = "archive.after-write";
    /** A roll sealed the open files (finished, staged, invisible). */
    static final String AFTER_SEAL = "archive.after-seal";

    private final PartitionPaths paths;
    private final StorageBackend backend;
    private final Layout layout;
    private final FileFormat format;
    private final RollDecision rolls;
    private final ArchiveCounters counters;
    private final MemoryPressure pressure;
    private final StorageCalls storageCalls;
    private final Compressors compressors;
    private final SealedFiles sealed;
    /** Decodes each value once, for the layout's fields and, when the format needs it, for the writer. */
    private final ValueReader values;
    private final boolean decode;

    private final Map<String, OpenFile> open = new LinkedHashMap<>();
    private long next;
    private long barrier;
    /** When the oldest open file was opened, valid while {@link #anyOpen}; both read by any thread for estimates. */
    private volatile long oldestOpenNanos;
    private volatile boolean anyOpen;
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

    OpenFiles(PartitionPaths paths, StorageBackend backend, Layout layout, FileFormat format, RollDecision rolls,
            ArchiveCounters counters, MemoryPressure pressure, StorageCalls storageCalls, Compressors compressors,
            SealedFiles sealed) {
        this.paths = paths;
        this.backend = backend;
        this.layout = layout;
        this.format = format;
        this.rolls = rolls;
        this.counters = counters;
        this.pressure = pressure;
        this.storageCalls = storageCalls;
        this.compressors = compressors;
        this.sealed = sealed;
        this.values = ArchiveSink.valueReader(layout, format);
        this.decode = format.decodesValues() || !layout.fieldPaths().isEmpty();
    }

    /** Starts at the committed offset, with nothing open. */
    void startAt(long committedOffset) {
        next = committedOffset;
        barrier = committedOffset;
    }

    long barrier() {
        return barrier;
    }

    void write(ConsumerRecord<byte[], byte[]> record) throws RecordRejectedException, StorageFailure {
        ValueFields value = decode && record.value() != null ? values.read(record.value()) : null;
        String directory = layout.directory(record, value);
        OpenFile file = open.get(directory);
        if (file == null) {
            rollFor(rolls.beforeOpening(open.size(), pressure));
            file = openFile(directory, record.offset());
        }
        try {
            file.writer.write(record, value);
        } catch (RecordRejectedException e) {
            if (file.writer.records() == 0) { // opened for this record: give it up, as a layout rejection would
                open.remove(directory);
                anyOpen = !open.isEmpty();
                uncount(file);
                file.writer.discard();
                file.pending.abort();
            }
            throw e;
        } catch (IOException e) {
            throw new StorageFailure("write", file.path, e);
        }
        file.lastOffset = record.offset();
        next = record.offset() + 1;
        CrashPoints.reach(AFTER_WRITE);
        recount(file);
        rollFor(rolls.afterWrite(file.writer.bytesWritten(), file.writer.records(), buffered, pressure));
    }

    /** At a checkpoint: rolls the open files, if any, when the decision says so. */
    void checkpoint(boolean last) throws StorageFailure {
        if (!open.isEmpty()) {
            rollFor(rolls.atCheckpoint(last, oldestOpenNanos, System.nanoTime(), buffered, pressure));
        }
    }

    /** The engine needs the heap the open files hold ({@code Sink.relieve}): rolls them, if the decision says so. */
    void relieve() throws StorageFailure {
        if (!open.isEmpty()) {
            rollFor(rolls.whenTheBudgetNeedsIt(buffered));
        }
    }

    /**
     * Gives the open files up (no manifest names them). After a storage failure the store gets no more calls: the
     * staged remains are abandoned, and the partition's next recovery removes them.
     */
    void close(boolean storageFailed) {
        try {
            for (OpenFile f : open.values()) {
                f.writer.discard();
                if (storageFailed) {
                    f.pending.abandon();
                } else {
                    f.pending.abort();
                }
            }
        } finally {
            forgetOpenFiles();
        }
    }

    /**
     * Gives the open files up without further storage calls (the storage just failed; the next recovery removes what
     * is staged), and goes back to the barrier: nothing after it is written.
     */
    void abandon() {
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
    }

    /** Heap held by the open files; any thread. */
    long bufferedBytes() {
        return buffered;
    }

    /**
     * When ({@link System#nanoTime()}) the oldest open file was opened, or empty with none open; any thread, as an
     * estimate (it may be a moment old).
     */
    OptionalLong oldestOpenNanos() {
        long since = oldestOpenNanos;
        return anyOpen ? OptionalLong.of(since) : OptionalLong.empty();
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
        anyOpen = false;
        pressure.changed(-buffered);
        buffered = 0;
    }

    private OpenFile openFile(String directory, long firstOffset) throws StorageFailure {
        String path = paths.file(directory, firstOffset, format.extension());
        OpenFile file;
        try {
            PendingFile pending = backend.create(path, paths.staging());
            try {
                file = new OpenFile(path, pending, format.open(pending.stream(), compressors), firstOffset);
            } catch (IOException e) {
                pending.abandon();
                throw e;
            }
        } catch (IOException e) {
            throw new StorageFailure("start", path, e);
        }
        if (open.isEmpty()) {
            oldestOpenNanos = System.nanoTime();
            anyOpen = true;
        }
        open.put(directory, file);
        recount(file);
        return file;
    }

    private void rollFor(Optional<RollTrigger> trigger) throws StorageFailure {
        if (trigger.isPresent()) {
            counters.rolling(trigger.get());
            rollAll();
        }
    }

    /**
     * Seals every open file at the current offset, side by side ({@link StorageCalls}): the partition-wide barrier.
     * The files join {@code sealed} only when all are sealed, so a failure half-way never lets a later manifest list
     * records beyond the barrier.
     */
    private void rollAll() throws StorageFailure {
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
        List<ManifestFile> sealedNow = storageCalls.each("seal", files.stream().map(f -> f.path).toList(), seals);
        sealed.add(sealedNow);
        forgetOpenFiles();
        barrier = next;
        counters.rolled(sealedNow.size());
        CrashPoints.reach(AFTER_SEAL);
    }
}
