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
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
 * <p>A record whose directory has no open file is <em>held</em> in memory with its directory's others
 * ({@link HeldRows}) until they cost more than a file would ({@link RollDecision#forNewDirectory}); the roll writes
 * each held directory as one file, a few at a time, beside the open files it seals. A directory that gets a file when
 * the partition has as many open as it may <em>evicts</em> the least recently written one: that file alone is sealed
 * and <em>parked</em> (finished, staged, durable, named by no manifest), and the barrier stays. Parked files join the
 * sealed ones at the next roll, which moves the barrier past every record in them. So a late record for a directory
 * not open no longer cuts every file of the partition, the hot one included, and the commit protocol is unchanged: a
 * file enters a manifest only in a roll, at a barrier above all its records; a crash before that leaves it staged and
 * unnamed, and recovery removes it (issue 17, docs/design/late-data.md). Parked files are bounded ({@link RollDecision#afterEviction}), since what they hold is
 * not committed and a crash writes it again.
 *
 * <p>The heap its open files hold (backend buffers plus what the format writers report) is summed here, in
 * {@link #recount}, and reported to the sink-wide {@link MemoryPressure}.
 *
 * <p>Threading: one thread at a time (the engine's lane for this partition); {@link #bufferedBytes} from any thread.
 */
final class OpenFiles {

    private static final Logger LOG = LoggerFactory.getLogger(OpenFiles.class);
    /** How far ahead of the clock a record's time is said to be suspicious (a day: clocks and time zones differ). */
    private static final java.time.Duration FAR_AHEAD = java.time.Duration.ofDays(1);

    /** A record is in an open file, or held for its directory: taken in, below no barrier. */
    static final String AFTER_WRITE = "archive.after-write";
    /** A roll sealed the open files (finished, staged, invisible). */
    static final String AFTER_SEAL = "archive.after-seal";
    /** The least recently written open file was sealed alone and parked: staged, named by no manifest. */
    static final String AFTER_EVICT = "archive.after-evict";
    /** A roll sealed a batch of files written from held records; the open files and any further batches wait. */
    static final String AFTER_HELD_BATCH = "archive.after-held-batch";
    /**
     * Files written from held records at a roll, sealed side by side: bounded, since each holds its writer's heap (a
     * Parquet writer hundreds of KiB) until sealed.
     */
    static final int HELD_FILES_PER_BATCH = 16;

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

    /** In the order files were last written (access order): the first is the one an eviction seals. */
    private final Map<String, OpenFile> open = new LinkedHashMap<>(16, 0.75f, true);
    /** Records of directories with no open file, written at the next roll. */
    private final HeldRows held = new HeldRows();
    /** Files sealed alone by evictions since the last roll; they join the sealed files at the next. */
    private final List<ManifestFile> parked = new ArrayList<>();
    private long parkedBytes;
    private long next;
    private long barrier;
    private boolean warnedFarAhead;
    private boolean warnedNear1970;
    /**
     * When the first file since the last roll was opened or the first record held (parked files included: the age
     * limit bounds how long records wait behind the barrier), valid while {@link #anyOpen}; both read by any thread
     * for estimates.
     */
    private volatile long oldestOpenNanos;
    private volatile boolean anyOpen;
    /**
     * Heap held by the open files and the held records. Written by the lane only; read by the consumer thread and
     * other partitions' lanes at any time, so kept apart from the lane-owned map of open files.
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

    /**
     * Once per partition, a folder whose record's time is more than a day ahead of this machine's clock is said: a time
     * field in microseconds read as milliseconds files records in the year 50000, and a year-3000 date went into
     * {@code dt=3000-01-01/} without a word (a new user's run). So is one in the first three years after 1970, where
     * epoch seconds read as milliseconds land (1764460800 went into {@code dt=1970-01-21/} without a word: a new
     * user's run). Checked for a new folder only: rare, and where it shows.
     */
    private void warnIfFarAhead(ConsumerRecord<byte[], byte[]> record, ValueFields value, String directory)
            throws RecordRejectedException {
        if (warnedFarAhead) {
            return;
        }
        java.time.Instant time = layout.timeOf(record, value);
        long millis = time == null ? 0 : time.toEpochMilli();
        long ahead = time == null ? 0 : millis - System.currentTimeMillis();
        if (ahead > FAR_AHEAD.toMillis()) {
            warnedFarAhead = true;
            LOG.warn("{}@{} is filed under {}, its time ({}) {} days ahead of this machine's clock: a time field in "
                    + "another unit (microseconds, seconds) or a wrong value? Its records go there all the same; this "
                    + "is said once per partition", paths.partition(), record.offset(), directory, time,
                    String.format(java.util.Locale.ROOT, "%,d", ahead / 86_400_000L));
        } else if (millis > 0 && millis < SECONDS_READ_AS_MILLIS && !warnedNear1970) {
            warnedNear1970 = true;
            LOG.warn("{}@{} is filed under {}, its time ({}) within three years of 1970, where a time in epoch seconds "
                    + "read as milliseconds lands: is the time field in seconds? Its records go there all the same; "
                    + "this is said once per partition", paths.partition(), record.offset(), directory, time);
        }
    }

    /** 1973-03-03: epoch seconds of any date from 1970 to 5138, read as milliseconds, fall below it. */
    private static final long SECONDS_READ_AS_MILLIS = 100_000_000_000L;

    /**
     * A folder name the store cannot take (a value of 300 characters in the template): the record's, refused as such,
     * where the run failed at its next checkpoint with "File name too long", every start the same, whatever
     * {@code on-failure} said (a new user's run).
     */
    private void refuseLongFolderNames(String directory) throws RecordRejectedException {
        if ((long) directory.length() * 3 <= backend.maxNameBytes()) {
            return; // a UTF-16 unit is at most 3 bytes of UTF-8: no name in it can be longer (a template's own text
                    // may hold wider characters than the encoded values)
        }
        for (String name : directory.split("/")) {
            int bytes = name.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
            if (bytes > backend.maxNameBytes()) {
                throw new RecordRejectedException("the folder name the path template makes of this record ('"
                        + name.substring(0, name.offsetByCodePoints(0, Math.min(40, name.codePointCount(0,
                        name.length())))) + "…') is " + bytes + " bytes, and " + backend.describe() + " takes at "
                        + "most " + backend.maxNameBytes() + " in one name");
            }
        }
    }

    void write(ConsumerRecord<byte[], byte[]> record) throws RecordRejectedException, StorageFailure {
        ValueFields value = decode && record.value() != null ? values.read(record.value()) : null;
        String directory = layout.directory(record, value);
        OpenFile file = open.get(directory);
        if (file == null) {
            refuseLongFolderNames(directory);
            warnIfFarAhead(record, value, directory);
            int size = PackedRecords.rawSize(record);
            long heldThen = held.rawBytesFor(directory) + size;
            switch (rolls.forNewDirectory(open.size(), heldThen, format.heapPerOpenFile(), pressure)) {
                case HOLD -> {
                    hold(directory, record, size, value);
                    return;
                }
                case EVICT_AND_OPEN -> evictLeastRecentlyWritten(); // may roll, which writes what was held
                case OPEN -> {
                }
            }
            PackedRecords rows = held.take(directory);
            file = openFile(directory, rows == null ? record.offset() : rows.firstOffset());
            if (rows != null) {
                countHeld(-rows.heapBytes());
                writeHeld(file, rows);
            }
        }
        try {
            file.writer.write(record, value);
        } catch (RecordRejectedException e) {
            if (file.writer.records() == 0) { // opened for this record: give it up, as a layout rejection would
                open.remove(directory);
                updateAnyOpen();
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
        if (!open.isEmpty() || !parked.isEmpty() || !held.isEmpty()) {
            rollFor(rolls.atCheckpoint(last, oldestOpenNanos, System.nanoTime(), buffered, pressure));
        }
    }

    /** The engine needs the heap the open files hold ({@code Sink.relieve}): rolls them, if the decision says so. */
    void relieve() throws StorageFailure {
        if (!open.isEmpty() || !held.isEmpty()) { // parked files hold no heap
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
            if (!storageFailed) {
                discardParked();
            }
        } finally {
            forgetOpenFiles();
            forgetParked();
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
        forgetParked(); // staged and named by no manifest: the next recovery removes them
        next = barrier;
    }

    /** Heap held by the open files and the held records; any thread. */
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

    /** Forgets the open files and the held records, and the heap they held. */
    private void forgetOpenFiles() {
        open.clear();
        held.takeAll();
        updateAnyOpen();
        pressure.changed(-buffered);
        buffered = 0;
    }

    private void forgetParked() {
        parked.clear();
        parkedBytes = 0;
        updateAnyOpen();
    }

    private void updateAnyOpen() {
        anyOpen = !open.isEmpty() || !parked.isEmpty() || !held.isEmpty();
    }

    private void countHeld(long delta) {
        buffered += delta; // volatile, but written by this lane only
        pressure.changed(delta);
    }

    /**
     * Holds a record whose directory has no open file: checked by the format now, so that a bad one is rejected on
     * arrival, where the engine dead-letters it, and written at the next roll.
     */
    private void hold(String directory, ConsumerRecord<byte[], byte[]> record, int size, ValueFields value)
            throws RecordRejectedException, StorageFailure {
        format.check(record, value);
        startsAge();
        long before = held.heapBytes();
        PackedRecords rows = held.hold(directory, record, size);
        countHeld(held.heapBytes() - before);
        next = record.offset() + 1;
        CrashPoints.reach(AFTER_WRITE);
        rollFor(rolls.afterHolding(rows.rawBytes(), rows.records(), buffered, pressure));
    }

    /**
     * Writes a directory's held records into its file, in offset order. They were checked on arrival and their
     * directory is known, so a value is decoded again only for a format that writes the decoded value (Avro values);
     * a JSON value the writer converts itself is not scanned twice.
     */
    private void writeHeld(OpenFile file, PackedRecords rows) throws StorageFailure {
        boolean writerDecodes = format.decodesValues();
        for (Iterator<ConsumerRecord<byte[], byte[]>> it = rows.records(paths.partition()); it.hasNext(); ) {
            ConsumerRecord<byte[], byte[]> r = it.next();
            try {
                file.writer.write(r, writerDecodes && r.value() != null ? values.read(r.value()) : null);
            } catch (RecordRejectedException e) {
                throw new IllegalStateException("a record the format accepted on arrival was rejected when written ("
                        + paths.partition() + "@" + r.offset() + "): " + e.getMessage(), e);
            } catch (IOException e) {
                throw new StorageFailure("write", file.path, e);
            }
            file.lastOffset = r.offset();
        }
        recount(file);
    }

    /** Parked files are staged and named by no manifest: removed when the partition closes. */
    private void discardParked() {
        if (parked.isEmpty()) {
            return;
        }
        try {
            backend.discardAll(parked.stream().map(ManifestFile::ref).toList());
        } catch (IOException e) {
            // invisible leftovers: the partition's next recovery removes them
            LOG.warn("could not remove {} parked files of {} from {}: {}", parked.size(), paths.partition(),
                    backend.describe(), e.toString());
        }
    }

    /**
     * Seals the least recently written open file alone and parks it: the barrier stays, so no manifest may name it
     * before the next roll. Then rolls everything if the parked files have grown past their bound.
     */
    private void evictLeastRecentlyWritten() throws StorageFailure {
        Map.Entry<String, OpenFile> eldest = open.entrySet().iterator().next();
        OpenFile f = eldest.getValue();
        ManifestFile sealedAlone = storageCalls.each("seal", List.of(f.path),
                List.<StorageCalls.Call<ManifestFile>>of(() -> seal(f))).get(0);
        open.remove(eldest.getKey());
        uncount(f);
        parked.add(sealedAlone);
        parkedBytes += sealedAlone.bytes();
        counters.evicted();
        CrashPoints.reach(AFTER_EVICT);
        rollFor(rolls.afterEviction(parked.size(), parkedBytes));
    }

    private static ManifestFile seal(OpenFile f) throws IOException {
        f.writer.close();
        PendingRef ref = f.pending.finish();
        return new ManifestFile(ref.path(), ref.staging(), f.writer.records(), f.writer.bytesWritten(), f.firstOffset,
                f.lastOffset);
    }

    private OpenFile openFile(String directory, long firstOffset) throws StorageFailure {
        OpenFile file = newFile(directory, firstOffset);
        startsAge();
        open.put(directory, file);
        recount(file);
        return file;
    }

    /** The first file opened or record held since the last roll starts the age limit's clock. */
    private void startsAge() {
        if (!anyOpen) {
            oldestOpenNanos = System.nanoTime();
            anyOpen = true;
        }
    }

    private OpenFile newFile(String directory, long firstOffset) throws StorageFailure {
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
     * records beyond the barrier; the parked files join with them, all below the new barrier.
     */
    private void rollAll() throws StorageFailure {
        List<OpenFile> files = List.copyOf(open.values());
        List<StorageCalls.Call<ManifestFile>> seals = new ArrayList<>(files.size());
        for (OpenFile f : files) {
            seals.add(() -> seal(f));
        }
        // a roll of hundreds of held folders takes seconds of CPU, in which no record completes: the run's line said
        // "0.00 rec/s · not catching up" for 5-7 s of the quick start's 26; it says what the roll does instead
        int sealing = files.size() + held.directories();
        counters.sealing(sealing);
        List<ManifestFile> sealedNow;
        try {
            sealedNow = new ArrayList<>(storageCalls.each("seal", files.stream().map(f -> f.path).toList(), seals));
            sealedNow.addAll(writeHeldFiles());
        } finally {
            counters.sealing(-sealing);
        }
        List<ManifestFile> joining = new ArrayList<>(parked);
        joining.addAll(sealedNow);
        sealed.add(joining);
        forgetOpenFiles();
        forgetParked();
        barrier = next;
        counters.rolled(sealedNow.size());
        CrashPoints.reach(AFTER_SEAL);
    }

    /**
     * At a roll, writes each held directory's records as one file and seals it, {@link #HELD_FILES_PER_BATCH} at a
     * time. They are staged and named by no manifest until the roll hands them over with the rest, so a crash half-way
     * leaves them for recovery to remove, as it does sealed open files.
     */
    private List<ManifestFile> writeHeldFiles() throws StorageFailure {
        List<Map.Entry<String, PackedRecords>> all = held.takeAll();
        List<ManifestFile> written = new ArrayList<>(all.size());
        for (int from = 0; from < all.size(); from += HELD_FILES_PER_BATCH) {
            List<OpenFile> batch = new ArrayList<>(HELD_FILES_PER_BATCH);
            try {
                for (Map.Entry<String, PackedRecords> e : all.subList(from, Math.min(all.size(),
                        from + HELD_FILES_PER_BATCH))) {
                    OpenFile f = newFile(e.getKey(), e.getValue().firstOffset());
                    batch.add(f);
                    writeHeld(f, e.getValue());
                }
                List<StorageCalls.Call<ManifestFile>> seals = new ArrayList<>(batch.size());
                for (OpenFile f : batch) {
                    seals.add(() -> seal(f));
                }
                written.addAll(storageCalls.each("seal", batch.stream().map(f -> f.path).toList(), seals));
            } catch (StorageFailure | RuntimeException e) {
                for (OpenFile f : batch) { // not sealed, or sealed and named by nothing: recovery removes what stays
                    f.writer.discard();
                    try {
                        f.pending.abandon();
                    } catch (RuntimeException ignored) {
                        // already failing
                    }
                }
                throw e;
            }
            CrashPoints.reach(AFTER_HELD_BATCH);
        }
        return written;
    }
}
