package io.sluice.storage.sink;

import java.util.Collection;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The sink-wide limit on heap held by open files (backend buffers and what the format writers hold, as each
 * {@link PartitionArchive} sums them). Over the limit, the partition holding the most rolls early: all its files, at
 * its barrier, by the normal protocol, at its next write or checkpoint. It is a soft limit that keeps the sink from
 * growing into the engine's memory budget, where it would pause partitions until their files aged out; the budget
 * stays the hard bound.
 *
 * <p>Threading: safe for concurrent use; each partition reports its own changes from its lane.
 */
final class MemoryPressure {

    private final long limit;
    private final Collection<PartitionArchive> partitions;
    private final AtomicLong total = new AtomicLong();

    /** @param partitions a live view of the sink's open partitions */
    MemoryPressure(long limit, Collection<PartitionArchive> partitions) {
        if (limit < 1) {
            throw new IllegalArgumentException("the sink's memory limit must be positive, not " + limit + " bytes");
        }
        this.limit = limit;
        this.partitions = partitions;
    }

    /** A partition's buffers grew (or shrank, when negative) by {@code delta} bytes. */
    void changed(long delta) {
        total.addAndGet(delta);
    }

    long total() {
        return total.get();
    }

    /**
     * Whether {@code archive} must roll now to relieve the sink: the sink is over its limit and no other partition
     * holds more. Cheap while under the limit; over it, it looks at every partition.
     */
    boolean mustRoll(PartitionArchive archive) {
        if (total.get() <= limit) {
            return false;
        }
        long mine = archive.bufferedBytes();
        if (mine == 0) {
            return false;
        }
        for (PartitionArchive other : partitions) {
            if (other.bufferedBytes() > mine) {
                return false;
            }
        }
        return true;
    }
}
