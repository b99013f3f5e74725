package io.sluice.storage.sink;

import io.sluice.storage.rolling.RollTrigger;
import java.util.concurrent.atomic.LongAdder;

/**
 * What an {@link ArchiveSink} does, over all its partitions: rolls by cause and files published, counted as it
 * happens and read as an {@link ArchiveCounts} snapshot, and the files the rolls under way are sealing now.
 *
 * <p>Threading: adders, safe for concurrent use; the partitions' lanes count, any thread takes a snapshot.
 */
final class ArchiveCounters {

    private final LongAdder rolls = new LongAdder();
    private final LongAdder boundRolls = new LongAdder();
    private final LongAdder pressureRolls = new LongAdder();
    private final LongAdder sealedFiles = new LongAdder();
    private final LongAdder evictions = new LongAdder();
    private final LongAdder published = new LongAdder();
    /** Files the rolls under way seal now, over the partitions: a gauge, up as a roll starts, down as it ends. */
    private final LongAdder sealingNow = new LongAdder();

    /** A roll for {@code trigger} starts; those forced early are counted by cause. */
    void rolling(RollTrigger trigger) {
        switch (trigger) {
            case OPEN_FILE_BOUND -> boundRolls.increment();
            case MEMORY_PRESSURE, BUDGET -> pressureRolls.increment();
            default -> {
                // rolls at the policy's limits or the last checkpoint only count in rolls
            }
        }
    }

    /** A roll sealed {@code files} files. */
    void rolled(int files) {
        rolls.increment();
        sealedFiles.add(files);
    }

    /** The open-file bound sealed a file alone and parked it; counted in the sealed files too. */
    void evicted() {
        evictions.increment();
        sealedFiles.increment();
    }

    void published() {
        published.increment();
    }

    /** A roll starts to seal {@code files} files, or (negative) is over. */
    void sealing(int files) {
        sealingNow.add(files);
    }

    /** Files the rolls under way are sealing now, read from any thread. */
    long sealingNow() {
        return Math.max(0, sealingNow.sum());
    }

    ArchiveCounts snapshot() {
        return new ArchiveCounts(rolls.sum(), boundRolls.sum(), pressureRolls.sum(), evictions.sum(), sealedFiles.sum(),
                published.sum());
    }
}
