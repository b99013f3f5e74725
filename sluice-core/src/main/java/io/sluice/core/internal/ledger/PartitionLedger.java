package io.sluice.core.internal.ledger;

/**
 * The offsets of one partition between the last point everything is done and the consumer's position: which are
 * still pending, which are complete, and so what may be committed.
 *
 * <ul>
 *   <li>The <b>watermark</b> is the committable offset: every offset below it is complete, or never reached the
 *       application (a transaction marker, an aborted or compacted record, a record the previous owner had already
 *       completed). It is the lowest pending offset, or the consumer's position when nothing is pending.
 *   <li>Pending offsets are held in a ring of bits the size of the <b>window</b>: a record at or beyond
 *       {@code watermark + window} is not admitted, which bounds both what runs ahead of a stuck record and the size
 *       of the completion map in the commit metadata.
 *   <li>The <b>completion map</b> lists the offsets in {@code [watermark, end)} that are complete, and beyond
 *       {@code end} those the previous owner's commit said were complete; after a restart or a rebalance they are
 *       skipped instead of replayed.
 * </ul>
 *
 * <p>Threading: confined to the consumer thread. Workers never touch a ledger; their completions reach it as
 * messages.
 */
public final class PartitionLedger {

    private final long[] pending;
    private final int window;
    private final int mask;
    /** The previous owner's commit: what it completed beyond the start, until this owner has read past it. */
    private final CompletionMap inherited;
    private long watermark;
    private long end;
    private long handedOut;
    private int pendingCount;

    /**
     * @param start  the offset processing starts from (the committed offset)
     * @param window how far past the watermark records may be admitted; a power of two, a multiple of 64
     */
    public PartitionLedger(long start, int window) {
        this(start, window, CompletionMap.empty(start));
    }

    /**
     * @param start     the offset processing starts from (the committed offset)
     * @param window    how far past the watermark records may be admitted; a power of two, a multiple of 64
     * @param inherited what the commit at {@code start} says is complete beyond it (the dispatcher skips those)
     */
    public PartitionLedger(long start, int window, CompletionMap inherited) {
        if (window < 64 || Integer.bitCount(window) != 1) {
            throw new IllegalArgumentException("window must be a power of two of at least 64, not " + window);
        }
        this.window = window;
        this.mask = window - 1;
        this.pending = new long[window / 64];
        this.watermark = start;
        this.end = start;
        this.handedOut = start;
        this.inherited = inherited;
    }

    /** Whether a record at {@code offset} fits in the window; one that does not must wait (and be fetched again). */
    public boolean admits(long offset) {
        return offset < watermark + window;
    }

    /** A record at {@code offset} was handed out for processing. Offsets must be dispatched in increasing order. */
    public void dispatched(long offset) {
        if (offset < end) {
            throw new IllegalStateException("offset " + offset + " dispatched after " + (end - 1));
        }
        if (!admits(offset)) {
            throw new IllegalStateException("offset " + offset + " is outside the window [" + watermark + ", "
                    + (watermark + window) + ")");
        }
        if (pendingCount == 0) {
            // nothing pending: everything before this record was a gap or already complete
            watermark = offset;
        }
        int slot = (int) (offset & mask);
        pending[slot >>> 6] |= 1L << slot;
        pendingCount++;
        end = offset + 1;
        handedOut = end;
    }

    /**
     * The record at {@code offset} is done (processed, skipped or dead-lettered).
     *
     * @return whether the watermark moved
     */
    public boolean completed(long offset) {
        if (offset < watermark || offset >= end || !isPending(offset)) {
            throw new IllegalStateException("offset " + offset + " completed but not pending (watermark " + watermark
                    + ", end " + end + ")");
        }
        int slot = (int) (offset & mask);
        pending[slot >>> 6] &= ~(1L << slot);
        pendingCount--;
        if (offset != watermark) {
            return false;
        }
        advance();
        return true;
    }

    /**
     * The consumer's position moved to {@code position}: every offset below it has been handed out or was never
     * going to be (markers, aborted or compacted records).
     */
    public void positionAt(long position) {
        if (position > end) {
            end = position;
        }
        if (pendingCount == 0) {
            watermark = end;
        }
    }

    public long watermark() {
        return watermark;
    }

    /** One past the highest offset handed out or skipped. */
    public long end() {
        return end;
    }

    /**
     * One past the highest offset handed out (the start, before any): from here up to {@link #end} lie only offsets
     * the application never sees. A sink's checkpoint that covers every record handed out may commit up to
     * {@link #end}; without that, a log ending in a transaction marker would hold its progress one short forever.
     */
    public long handedOut() {
        return handedOut;
    }

    public int pendingCount() {
        return pendingCount;
    }

    public int window() {
        return window;
    }

    public boolean isPending(long offset) {
        if (offset < watermark || offset >= end) {
            return false;
        }
        int slot = (int) (offset & mask);
        return (pending[slot >>> 6] & (1L << slot)) != 0;
    }

    /**
     * The complete offsets from the watermark on, for the commit metadata: in {@code [watermark, end)} those not
     * pending, beyond {@code end} those the previous owner completed. Without the latter, an owner that commits before
     * it has read past its predecessor's completions (revoked or closed soon after the claim, while the watermark is
     * held back by one slow record) would commit a map that forgets them, and the next owner would process them again.
     */
    public CompletionMap completionMap() {
        long to = Math.max(end, inherited.base() + inherited.span());
        if (pendingCount == 0 && to == end) {
            return CompletionMap.empty(watermark);
        }
        int span = (int) (to - watermark);
        long[] complete = new long[(span + 63) >>> 6];
        for (int i = 0; i < span; i++) {
            long offset = watermark + i;
            if (offset < end ? !isPending(offset) : inherited.isComplete(offset)) {
                complete[i >>> 6] |= 1L << i;
            }
        }
        return new CompletionMap(watermark, span, complete);
    }

    private void advance() {
        // word-at-a-time scan for the next pending bit; the watermark only moves forward, so this is amortized O(1)
        while (watermark < end) {
            int slot = (int) (watermark & mask);
            long word = pending[slot >>> 6] >>> (slot & 63);
            if (word != 0) {
                watermark += Long.numberOfTrailingZeros(word);
                if (watermark > end) {
                    watermark = end;
                }
                return;
            }
            watermark += 64 - (slot & 63);
        }
        watermark = end;
    }
}
