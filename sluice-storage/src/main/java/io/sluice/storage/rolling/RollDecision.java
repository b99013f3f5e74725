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
 * at its barrier, by the normal protocol, at its next write or checkpoint; and a partition that would open another
 * file rolls its own instead ({@link #beforeOpening(int, SinkHeap)}). It is a soft limit that keeps the sink from
 * growing into the engine's memory budget; the budget stays the hard bound. Under the limit, one partition's files
 * can still hold more than half its share of the budget, which keeps it paused with nothing queued: then the engine
 * asks ({@link #whenTheBudgetNeedsIt}), since no write will come to roll it (issue 17).
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

    /**
     * Before a record opens another file, with {@code openFiles} open in its partition: at the bound, the least
     * recently written file is sealed alone and parked rather than every file rolled ({@code OpenFiles}), so that a
     * late record does not cut the others.
     */
    public boolean evictsBeforeOpening(int openFiles) {
        return openFiles >= policy.maxOpenFiles();
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
     * Before a record opens another file, with {@code openFiles} open in its partition, while the sink's open files
     * hold {@code heap}. Over the memory limit, a partition that has files open rolls them rather than open one more,
     * whichever partition holds the most: a new file costs its whole buffers at once (hundreds of KiB for a record of
     * one KiB), and while the partition holding the most seals its files, the others opening more took the heap past
     * twice the limit and out of a small JVM's memory (issue 17). A partition with none open still opens one, so it
     * always makes progress: the sink holds at most its limit plus one file per partition, besides the files sealing.
     */
    public Optional<RollTrigger> beforeOpening(int openFiles, SinkHeap heap) {
        if (openFiles == 0 || heap.total() <= maxBufferedBytes) {
            return Optional.empty();
        }
        return Optional.of(RollTrigger.MEMORY_PRESSURE);
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
