package io.sluice.storage.sink;

import io.sluice.storage.rolling.RollDecision;
import io.sluice.storage.rolling.SinkHeap;
import java.util.Collection;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;

/**
 * The sink-wide account of heap held by open files (backend buffers and what the format writers hold, as each
 * partition's {@link OpenFiles} sums them): the total, and each open partition's share. Over the sink's limit, the
 * partition holding the most rolls early; {@link RollDecision} decides that from this account.
 *
 * <p>Threading: safe for concurrent use; each partition reports its own changes from its lane.
 */
final class MemoryPressure implements SinkHeap {

    private final Collection<PartitionArchive> partitions;
    private final AtomicLong total = new AtomicLong();

    /** @param partitions a live view of the sink's open partitions */
    MemoryPressure(Collection<PartitionArchive> partitions) {
        this.partitions = partitions;
    }

    /** A partition's buffers grew (or shrank, when negative) by {@code delta} bytes. */
    void changed(long delta) {
        total.addAndGet(delta);
    }

    @Override
    public long total() {
        return total.get();
    }

    @Override
    public LongStream partitions() {
        return partitions.stream().mapToLong(PartitionArchive::bufferedBytes);
    }
}
