package io.sluice.storage.sink;

import io.sluice.core.sink.SinkCheckpoint;
import io.sluice.storage.backend.StorageBackend;
import io.sluice.storage.backend.StoreUnreachableException;
import io.sluice.storage.codec.Compressors;
import io.sluice.storage.format.FileFormat;
import io.sluice.storage.layout.Layout;
import io.sluice.storage.rolling.RollDecision;
import java.io.IOException;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * One partition's archive: its write side ({@link OpenFiles}: files open for writing, rolled at one offset) and its
 * commit side ({@link SealedFiles}: files sealed, invisible, until a committed manifest lets them be published),
 * driven in the order of {@code docs/exactly-once.md}.
 *
 * <p>A storage failure (a full disk, an I/O error, a store down for longer than its retry time) while writing,
 * rolling or publishing poisons the partition, and so does any other failure part-way through a write or a roll: its open files are given up without further storage calls, every
 * later write and checkpoint fails at once, and the error stops the engine, which then commits nothing more for this
 * partition. Records after the last commit are delivered again after a restart; nothing is acknowledged that was not
 * written.
 *
 * <p>Threading: one thread at a time (the engine's lane for this partition); {@link #bufferedBytes} from any thread.
 */
final class PartitionArchive {

    /** Made beforehand: what {@link #poisoned} marks the partition with before it can build its own words. */
    private static final IOException OUT_OF_MEMORY = new IOException("the archive of this partition failed part-way "
            + "through a write or a roll (out of memory?); nothing after the last commit is acknowledged, and a "
            + "restart writes it again");

    private final TopicPartition partition;
    private final StorageBackend backend;
    private final SealedFiles sealed;
    private final OpenFiles open;
    private IOException broken;

    PartitionArchive(TopicPartition partition, String topicId, StorageBackend backend, Layout layout, FileFormat format,
            RollDecision rolls, boolean exactlyOnce, ArchiveCounters counters, MemoryPressure pressure,
            StorageCalls storageCalls, Compressors compressors) {
        this(partition, topicId, backend, layout, format, rolls, exactlyOnce, counters, pressure, storageCalls,
                compressors, ArchiveSink.DEFAULT_FOLD_MANIFESTS_AFTER);
    }

    /** @param foldManifestsAfter see {@link ManifestRetention} */
    PartitionArchive(TopicPartition partition, String topicId, StorageBackend backend, Layout layout, FileFormat format,
            RollDecision rolls, boolean exactlyOnce, ArchiveCounters counters, MemoryPressure pressure,
            StorageCalls storageCalls, Compressors compressors, int foldManifestsAfter) {
        this.partition = partition;
        this.backend = backend;
        PartitionPaths paths = new PartitionPaths(partition, topicId);
        this.sealed = new SealedFiles(paths, backend, exactlyOnce, counters, storageCalls, foldManifestsAfter);
        this.open = new OpenFiles(paths, backend, layout, format, rolls, counters, pressure, storageCalls, compressors,
                sealed);
    }

    /**
     * Finishes what the last commit promised (publishes the files of its manifest, idempotently) and removes every
     * other staged file of this partition: those were never committed.
     */
    void recover(long committedOffset, Optional<String> manifestName) throws IOException {
        open.startAt(committedOffset);
        sealed.recover(manifestName);
    }

    void write(ConsumerRecord<byte[], byte[]> record) throws Exception {
        failIfBroken();
        try {
            open.write(record);
        } catch (StorageFailure e) {
            throw poison(e);
        } catch (RuntimeException | Error e) {
            poisoned("writing offset " + record.offset(), e);
            throw e;
        }
    }

    SinkCheckpoint checkpoint(boolean last) throws IOException {
        failIfBroken();
        try {
            open.checkpoint(last);
            return sealed.checkpoint(open.barrier());
        } catch (StorageFailure e) {
            throw poison(e);
        } catch (RuntimeException | Error e) {
            poisoned("rolling its files", e);
            throw e;
        }
    }

    /** Seals the open files when the engine needs their heap ({@link OpenFiles#relieve}). */
    void relieve() throws IOException {
        failIfBroken();
        try {
            open.relieve();
        } catch (StorageFailure e) {
            throw poison(e);
        } catch (RuntimeException | Error e) {
            poisoned("rolling its files for memory", e);
            throw e;
        }
    }

    /** See {@link SealedFiles#committed}: a failure to publish poisons the partition. */
    void committed(SinkCheckpoint checkpoint) throws IOException {
        try {
            sealed.committed(checkpoint);
        } catch (StorageFailure e) {
            throw poison(e);
        }
    }

    void notCommitted(SinkCheckpoint checkpoint, boolean certain) {
        sealed.notCommitted(checkpoint, certain);
    }

    /**
     * Open files are given up (no manifest names them), and so are sealed files that no commit can name
     * ({@link SealedFiles#close}).
     */
    void close(boolean lost) {
        open.close(broken != null);
        sealed.close(broken != null);
    }

    /** Heap held by the open files; any thread. */
    long bufferedBytes() {
        return open.bufferedBytes();
    }

    /** When the oldest open file was opened ({@link System#nanoTime()}), or empty with none open; any thread. */
    OptionalLong oldestOpenNanos() {
        return open.oldestOpenNanos();
    }

    private void failIfBroken() throws IOException {
        if (broken != null) {
            throw new IOException("the archive of " + partition + " failed earlier: " + broken.getMessage(), broken);
        }
    }

    /**
     * Any other failure part-way through a write or a roll (a writer that throws, an OutOfMemoryError under the very
     * pressure a roll relieves) leaves the open files and the held records half-changed: held records taken out and
     * not all written, files sealed and still listed as open. The partition is marked failed like a storage failure,
     * so that the drain's last checkpoint commits nothing past what is surely written: it sealed a file cut short and
     * committed the barrier past the held records that never reached it (a review). The caller throws the failure as it
     * came.
     */
    private void poisoned(String doing, Throwable failure) {
        broken = OUT_OF_MEMORY; // first: building the words below may itself fail for want of memory
        broken = new IOException("the archive of " + partition + " failed while " + doing + " (" + failure
                + "); nothing after the last commit is acknowledged, and a restart writes it again", failure);
        try {
            open.abandon();
        } catch (RuntimeException e) {
            failure.addSuppressed(e);
        }
    }

    /**
     * Marks the partition failed and gives its open files up without further storage calls (the storage just
     * failed; the next recovery removes what is staged). Returns the error to throw: it names the partition, the
     * file, what was being done and the storage's own reason.
     */
    private IOException poison(StorageFailure failure) {
        String words = "cannot " + failure.action + " " + (failure.path == null ? "of " + partition : failure.path)
                + " in " + backend.describe() + " (" + partition + "): " + failure.reason(backend)
                + ". The engine stops; nothing after the last commit is acknowledged, and a restart writes it again";
        // a store that is away is said in full above; its client's own words stay below for --verbose
        IOException error = failure.storeAway(backend) ? new StoreUnreachableException(words, failure.cause)
                : new IOException(words, failure.cause);
        broken = error;
        open.abandon();
        return error;
    }
}
