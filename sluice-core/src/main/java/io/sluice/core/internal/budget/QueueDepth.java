package io.sluice.core.internal.budget;

/**
 * How many bytes of records one partition may queue for its lanes: as few as keep the lanes from running dry while
 * the next fetch travels, learnt from the fetches themselves. A short queue is what keeps the heap small: a record
 * queued longer than the collector's young period is copied, then promoted, and the old generation fills with dead
 * records. On the archive benchmark (4 partitions, 1 KB lines, 1 MiB fetches, a 1 GiB heap) a fixed queue of 16
 * fetches per partition kept 350–490 MB after collections, 4 fetches about 130 MB, 1 fetch 98 MB, against 79–85 MB for
 * a Kafka Connect task, at the same rate within this machine's spread; engine-cpu's no-op lanes ran as fast with 1
 * fetch as with 16. But a broker far away takes longer to answer than a local lane takes to finish a fetch's records,
 * so the depth is not fixed: it starts at one fetch, doubles when a partition's fetch arrives with no record of it
 * waiting to start (its lane had finished what was queued and waited on the network; or, with many lanes, every
 * record queued was already running, as with an asynchronous handler's thousands in flight), and gives back a fetch
 * when one arrives with records waiting and more than half of the resume mark still queued (the margin was not
 * needed). Only the first fetch after a pause is judged: while a partition is not paused its fetches follow one
 * another and say nothing about the queue's depth.
 *
 * <p>Threading: confined to the consumer thread.
 */
public final class QueueDepth {

    /**
     * The deepest queue, in fetches: the fixed depth before it was learnt. Its resume mark, 8 fetches of 1 MiB, keeps
     * a lane that does 50 MB/s busy for 0.16 s while the next fetch travels.
     */
    static final int MAX_FETCHES = 16;

    private final long fetchBytes;
    private long cap;
    private boolean awaitingRefill;

    /** @param fetchBytes the consumer's {@code max.partition.fetch.bytes} ({@link MemoryBudget#partitionFetchBytes}) */
    public QueueDepth(long fetchBytes) {
        this.fetchBytes = fetchBytes;
        this.cap = fetchBytes;
    }

    /** The bytes of records the partition may queue before it pauses. */
    public long cap() {
        return cap;
    }

    /**
     * The partition fetches again after a pause: its next fetch tells whether the queue was deep enough, unless its
     * lanes had already finished everything (then they waited on the budget, not on the network).
     *
     * @param stillQueued its records queued and in flight now
     */
    public void resumed(long stillQueued) {
        awaitingRefill = stillQueued > 0;
    }

    /**
     * A fetch of the partition's records arrived; both arguments as they were before the fetch's own records.
     *
     * @param waiting     its records queued and not yet started
     * @param stillQueued the bytes of its records queued and in flight
     */
    public void refilled(int waiting, long stillQueued) {
        if (!awaitingRefill) {
            return;
        }
        awaitingRefill = false;
        if (waiting <= 0) {
            cap = Math.min(MAX_FETCHES * fetchBytes, cap * 2);
        } else if (stillQueued > cap / 4) {
            cap = Math.max(fetchBytes, cap - fetchBytes);
        }
    }
}
