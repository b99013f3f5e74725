package io.sluice.core.budget;

/**
 * One budget in bytes for everything the engine holds (records queued and in flight), shared out evenly over the
 * assigned partitions. A partition at its share is paused, and fetched again once it is down to half of it; the
 * margin of one fetch keeps the total under the budget even when a fetch lands on a partition just below its share.
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

    /** Whether a partition holding {@code bytes} must stop fetching. */
    public boolean atShare(long bytes) {
        return bytes >= pauseThreshold() || used >= total - partitionFetchBytes;
    }

    /** Whether a paused partition holding {@code bytes} may fetch again. */
    public boolean belowResumeMark(long bytes) {
        return bytes <= pauseThreshold() / 2 && used < total - 2 * partitionFetchBytes;
    }

    private long pauseThreshold() {
        long share = total / partitions;
        return Math.max(share / 2, share - partitionFetchBytes);
    }
}
