package io.sluice.storage.rolling;

import java.util.Optional;

/**
 * Decides every roll of a partition's open files: by the {@link RollingPolicy} (size, records, age, open-file bound),
 * at the partition's last checkpoint, under the sink-wide limit on the heap open files hold, and when the engine's
 * memory budget needs the partition's heap. A partition's write side asks it before opening a file, after each write,
 * at each checkpoint and when the engine asks for memory, and rolls when given a {@link RollTrigger}. It decides from
 * the figures it is given (the clock too), so it holds no state.
 *
 * <p>The memory limit ({@code maxBufferedBytes}): over it, the partition holding the most rolls early: all its files,
 * at its barrier, by the normal protocol, at its next write or checkpoint; records held for directories without a file
 * count too, and files open only while they leave room in half of it ({@link #forNewDirectory}). It is a
 * soft limit that keeps the sink from growing into the engine's memory budget; the budget stays the hard bound. Under
 * the limit, one partition's files can still hold more than half its share of the budget, which keeps it paused with
 * nothing queued: then the engine asks ({@link #whenTheBudgetNeedsIt}), since no write will come to roll it (issue 17).
 *
 * <p>Threading: immutable; the sink's partitions share one.
 */
public final class RollDecision {

    /** Parked files allowed per open file the policy allows, before everything rolls. */
    public static final int MAX_PARKED_PER_OPEN_FILE = 4;

    private final RollingPolicy policy;
    private final long maxBufferedBytes;

    /**
     * @param maxBufferedBytes the heap all open files of the sink together may hold before the partition holding the
     *                         most rolls early
     */
    public RollDecision(RollingPolicy policy, long maxBufferedBytes) {
        if (maxBufferedBytes < 1) {
            throw new IllegalArgumentException("the sink's memory limit must be positive, not " + maxBufferedBytes
                    + " bytes");
        }
        this.policy = policy;
        this.maxBufferedBytes = maxBufferedBytes;
    }

    /** What becomes of a record whose directory has no open file in its partition. */
    public enum Opening {
        /** A file is opened for the directory; what is held for it goes in first. */
        OPEN,
        /**
         * At the open-file bound: the least recently written open file is sealed alone and parked ({@code OpenFiles}),
         * and a file is opened for this directory.
         */
        EVICT_AND_OPEN,
        /** The record is held in memory with its directory's others ({@code HeldRows}), written at the next roll. */
        HOLD
    }

    /**
     * The least a directory holds before it gets a file: below it, its records cost less than the chunk a stream format
     * buffers before it compresses, and a straggler's directory would take a busy one's file at the bound.
     */
    public static final long MIN_HELD_TO_OPEN = 64 << 10;

    /**
     * Before writing a record whose directory has no open file in its partition, which has {@code openFiles} open and
     * holds {@code heldForDirectory} bytes of that directory's records (this one included, as serialized, before they
     * are packed), a file of the format costing {@code heapPerOpenFile}.
     *
     * <ul>
     *   <li>A directory gets a file once its records cost more held than a file would (and at least
     *       {@link #MIN_HELD_TO_OPEN}); until then they are held, and the roll writes them as one file. A file of a
     *       format that costs its buffers from the first row (Parquet: hundreds of KiB for tens of columns) is worth
     *       opening only for a directory that many records go to: a late hour's few never get one, and a layout
     *       scattered over hundreds of directories spends its memory on records, not on writers.
     *   <li>At the open-file bound, that directory takes the least recently written file's place: a late record never
     *       cuts a busy file, and a directory that turns busy gets its file.
     *   <li>Files open only while the sink's heap leaves room for one more in half its limit; past that, the
     *       records stay held, packed, and the limit rolls the partition holding the most. A layout scattered over
     *       hundreds of directories at once (the quick start's 288 per partition) would otherwise open a writer for
     *       each directory that passes its threshold, each costing more than the records it holds packed, until
     *       writers filled the limit and rolled a partition at every few records (issue 17). A few busy directories
     *       at a time (hourly data) fit, and get their files as soon as they pass the threshold.
     * </ul>
     */
    public Opening forNewDirectory(int openFiles, long heldForDirectory, long heapPerOpenFile, SinkHeap heap) {
        if (heldForDirectory < Math.max(heapPerOpenFile, MIN_HELD_TO_OPEN)
                || heap.total() + heapPerOpenFile > maxBufferedBytes / 2) {
            return Opening.HOLD;
        }
        return openFiles < policy.maxOpenFiles() ? Opening.OPEN : Opening.EVICT_AND_OPEN;
    }

    /**
     * After a record was held with its directory's others, {@code heldBytes} and {@code heldRecords} in all, in a
     * partition whose open files and held records take {@code partitionHeap}: as {@link #afterWrite}, the held records'
     * size in memory standing for their file's (larger than compressed: a roll comes early, never late).
     */
    public Optional<RollTrigger> afterHolding(long heldBytes, long heldRecords, long partitionHeap, SinkHeap heap) {
        return afterWrite(heldBytes, heldRecords, partitionHeap, heap);
    }

    /**
     * After an eviction, with {@code parkedFiles} parked holding {@code parkedBytes}: what parked files hold is not
     * committed (a crash writes it again) and every one is listed by the next manifest, so past
     * {@link #MAX_PARKED_PER_OPEN_FILE} times the open-file bound, or {@code maxBytes} in all, everything rolls.
     */
    public Optional<RollTrigger> afterEviction(int parkedFiles, long parkedBytes) {
        return parkedFiles >= (long) MAX_PARKED_PER_OPEN_FILE * policy.maxOpenFiles() || parkedBytes >= policy.maxBytes()
                ? Optional.of(RollTrigger.OPEN_FILE_BOUND) : Optional.empty();
    }

    /**
     * After a record went into a file that now holds {@code fileBytes} (compressed, as written) and
     * {@code fileRecords}, in a partition whose open files hold {@code partitionHeap}.
     */
    public Optional<RollTrigger> afterWrite(long fileBytes, long fileRecords, long partitionHeap, SinkHeap heap) {
        if (fileBytes >= policy.maxBytes()) {
            return Optional.of(RollTrigger.SIZE);
        }
        if (fileRecords >= policy.maxRecords()) {
            return Optional.of(RollTrigger.RECORDS);
        }
        return underPressure(partitionHeap, heap);
    }

    /**
     * At a checkpoint of a partition that has open files, the oldest opened at {@code oldestOpenedNanos}: the age
     * limit is checked here, at every commit interval, so an idle partition still rolls.
     *
     * @param last the partition's last checkpoint before it leaves this member or the engine closes
     */
    public Optional<RollTrigger> atCheckpoint(boolean last, long oldestOpenedNanos, long nowNanos, long partitionHeap,
            SinkHeap heap) {
        if (last) {
            return Optional.of(RollTrigger.LAST_CHECKPOINT);
        }
        if (nowNanos - oldestOpenedNanos >= policy.maxAge().toNanos()) {
            return Optional.of(RollTrigger.AGE);
        }
        return underPressure(partitionHeap, heap); // this partition may hold the most and no write came to roll it
    }

    /**
     * When the engine needs the heap a partition's open files hold ({@code partitionHeap}): it paused the partition at
     * its share of the memory budget, every record is written, and this heap alone keeps it paused. The sink's own
     * limit may not be reached, and with no record to come, neither a write nor the age (until {@code maxAge}) would
     * roll it: so it rolls now.
     */
    public Optional<RollTrigger> whenTheBudgetNeedsIt(long partitionHeap) {
        return partitionHeap > 0 ? Optional.of(RollTrigger.BUDGET) : Optional.empty();
    }

    /**
     * {@link RollTrigger#MEMORY_PRESSURE} when a partition whose open files hold {@code partitionHeap} must roll now
     * to relieve the sink: the sink is over its limit and no other partition holds more. Cheap while under the
     * limit; over it, it looks at every partition.
     */
    private Optional<RollTrigger> underPressure(long partitionHeap, SinkHeap heap) {
        if (heap.total() <= maxBufferedBytes || partitionHeap == 0) {
            return Optional.empty();
        }
        return heap.partitions().anyMatch(other -> other > partitionHeap) ? Optional.empty()
                : Optional.of(RollTrigger.MEMORY_PRESSURE);
    }
}
