package io.sluice.core.internal.budget;

/**
 * One budget in bytes for everything the engine holds (records queued and in flight, and what a sink holds for a
 * partition), shared out evenly over the assigned partitions. A partition at its share is paused, and fetched again
 * once it is down to half of it; the margin of one fetch keeps the total under the budget even when a fetch lands on
 * a partition just below its share.
 *
 * <p>The records a partition has queued are also capped, however large its share, by its {@link QueueDepth}: as many
 * as keep its lanes busy while the next fetch arrives, since more is only heap that every young collection must copy
 * (and then promotes). The rest of the share is for what the sink holds (open files).
 *
 * <p>Also derives the consumer's fetch sizes from the budget, so that what the consumer buffers internally stays a
 * small, known fraction of it.
 *
 * <p>Threading: confined to the consumer thread.
 */
public final class MemoryBudget {

    private static final long MIN_PARTITION_FETCH = 64 * 1024;
    private static final long MAX_PARTITION_FETCH = 1024 * 1024;

    private final long total;
    private final long partitionFetchBytes;
    private long used;
    private int partitions = 1;

    public MemoryBudget(long totalBytes) {
        this.total = totalBytes;
        this.partitionFetchBytes = Math.max(MIN_PARTITION_FETCH, Math.min(MAX_PARTITION_FETCH, totalBytes / 64));
    }

    /** {@code max.partition.fetch.bytes} for the consumer. */
    public int partitionFetchBytes() {
        return (int) partitionFetchBytes;
    }

    /** {@code fetch.max.bytes} for the consumer: a sixteenth of the budget, at most 50 MiB. */
    public int fetchMaxBytes() {
        return (int) Math.max(partitionFetchBytes, Math.min(50L * 1024 * 1024, total / 16));
    }

    public void partitionsAssigned(int count) {
        partitions = Math.max(1, count);
    }

    public void charge(long bytes) {
        used += bytes;
    }

    public void release(long bytes) {
        used -= bytes;
    }

    public long used() {
        return used;
    }

    public long total() {
        return total;
    }

    /**
     * Whether a partition must stop fetching.
     *
     * @param queued   its records queued and in flight
     * @param held     what the sink holds for it
     * @param queueCap what it may queue ({@link QueueDepth#cap})
     */
    public boolean atShare(long queued, long held, long queueCap) {
        return queued + held >= pauseThreshold() || queued >= queueCap || used >= total - partitionFetchBytes;
    }

    /** Whether a paused partition may fetch again; the arguments as for {@link #atShare}. */
    public boolean belowResumeMark(long queued, long held, long queueCap) {
        return queued + held <= pauseThreshold() / 2 && queued <= queueCap / 2
                && used < total - 2 * partitionFetchBytes;
    }

    /**
     * Whether what a sink holds for a partition with nothing queued ({@code held}) is enough by itself to keep the
     * partition from fetching again.
     */
    public boolean heldAboveResumeMark(long held) {
        return held > pauseThreshold() / 2;
    }

    private long pauseThreshold() {
        long share = total / partitions;
        return Math.max(share / 2, share - partitionFetchBytes);
    }
}
