package io.sluice.merge.merging;

import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One input partition's records on their way from its reader to the merge: batches, in offset order, each saying
 * whether the reader was at the partition's end once it had read them. The merge learns "at end" only from the
 * batches it has taken, never from a flag the reader sets beside them, so it can never see "at end" while records
 * read before that are still queued: what counts as idle depends on the records alone.
 *
 * <p>"At end" also goes stale: a reader that loses its cluster stops hearing, and a flag it set an hour ago would let
 * the merge run on without the input for ever, making everything the input sent meanwhile late. So the reader confirms
 * the end with a round trip to the cluster every so often ({@link #confirmAtEnd}), and the merge believes "at end"
 * only while the last confirmation is younger than {@link #STALE_MILLIS}; after that the input is silent, and the
 * merge waits for it up to its longest wait.
 *
 * <p>Threading: one reader thread calls {@link #offer} and {@link #confirmAtEnd}; one merge thread at a time calls the
 * taking side ({@link #head}, {@link #take}, {@link #atEnd}, {@link #lastHeard}); {@link #bytes} from any thread.
 */
public final class InputBuffer {

    /** How old the reader's last word that the partition is at its end may be for the merge to believe it. */
    public static final long STALE_MILLIS = 3_000;

    /**
     * What a reader delivers after one poll.
     *
     * @param readUpTo the reader's position after the poll: every record of the partition below it is in this batch
     *                 or an earlier one (what lies between is transaction markers and aborted records, which a
     *                 read_committed reader never returns); -1 when not known
     */
    public record Batch(List<Arrival> arrivals, boolean atEnd, long readUpTo) {
    }

    private final Queue<Batch> batches = new ConcurrentLinkedQueue<>();
    private final AtomicLong bytes = new AtomicLong();
    private volatile long confirmedAt = MergeClock.NEVER;
    private final Runnable wakeMerge;

    // taking side: the merge thread's
    private List<Arrival> current = List.of();
    private int next;
    private boolean atEnd;
    private long lastArrival;
    private long confirmedBeforeHead = MergeClock.NEVER;
    private long readUpTo = -1;

    /** {@code wakeMerge} is run after every offer, to wake the thread that merges this partition. */
    public InputBuffer(Runnable wakeMerge, long createdAt) {
        this.wakeMerge = wakeMerge;
        this.lastArrival = createdAt;
    }

    /**
     * Reader: records read (maybe none), whether the partition's end was reached with them, and the reader's position
     * after them ({@link Batch#readUpTo}); returns the bytes held here with them.
     */
    public long offer(List<Arrival> arrivals, boolean atEndAfter, long readUpTo) {
        long size = 0;
        for (Arrival a : arrivals) {
            size += a.bytes();
        }
        long held = bytes.addAndGet(size);
        batches.add(new Batch(arrivals, atEndAfter, readUpTo));
        wakeMerge.run();
        return held;
    }

    /**
     * Reader: the cluster said just now that the partition's end is where the reader is, and every record before it
     * was offered. Written after the offers it covers, so a merge that reads it first and then finds no batch knows
     * the end is real as of {@code now}.
     */
    public void confirmAtEnd(long now) {
        confirmedAt = now;
    }

    /** Bytes held here; the reader pauses the partition above its share. */
    public long bytes() {
        return bytes.get();
    }

    /** Merge: the next record, or null when none has arrived (see {@link #atEnd} for whether one may come). */
    public Arrival head(long now) {
        confirmedBeforeHead = confirmedAt;
        while (next >= current.size()) {
            Batch batch = batches.poll();
            if (batch == null) {
                return null;
            }
            current = batch.arrivals();
            next = 0;
            atEnd = batch.atEnd();
            readUpTo = Math.max(readUpTo, batch.readUpTo());
            lastArrival = now;
        }
        return current.get(next);
    }

    /**
     * Merge, right after {@link #head} found nothing: the reader's position with the batches taken so far, every record
     * below it taken; -1 when the reader did not say.
     */
    public long readUpTo() {
        return readUpTo;
    }

    /** Merge: the head is settled; returns it. */
    public Arrival take() {
        Arrival a = current.get(next++);
        bytes.addAndGet(-a.bytes());
        return a;
    }

    /**
     * Merge, right after {@link #head} found nothing: whether the input had reached its end with its last batch, and
     * the cluster confirmed that end recently.
     */
    public boolean atEnd(long now) {
        return atEnd && now - confirmedBeforeHead <= STALE_MILLIS;
    }

    /** Merge: when the cluster last confirmed the end (as of the last {@link #head}), on {@link MergeClock}'s time. */
    public long endConfirmedAt() {
        return confirmedBeforeHead;
    }

    /** Merge: the last time the input was heard of (a batch taken, an end confirmed), for the silent input's wait. */
    public long lastHeard() {
        return Math.max(lastArrival, confirmedBeforeHead);
    }
}
