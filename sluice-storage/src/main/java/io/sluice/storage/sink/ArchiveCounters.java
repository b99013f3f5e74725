package io.sluice.storage.sink;

import java.util.concurrent.atomic.LongAdder;

/**
 * What an {@link ArchiveSink} did, over all its partitions: rolls by cause and files published.
 *
 * <p>Threading: adders, safe for concurrent use.
 */
public final class ArchiveCounters {

    /** Every roll: all open files of a partition sealed at one offset. */
    public final LongAdder rolls = new LongAdder();
    /** Rolls forced by the open-file bound. */
    public final LongAdder boundRolls = new LongAdder();
    /** Rolls forced by the sink's memory limit. */
    public final LongAdder pressureRolls = new LongAdder();
    /** Files sealed by rolls (each becomes visible once its manifest's commit succeeds). */
    public final LongAdder sealedFiles = new LongAdder();
    /** Files published. */
    public final LongAdder published = new LongAdder();
}
