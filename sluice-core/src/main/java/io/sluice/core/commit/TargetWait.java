package io.sluice.core.commit;

/**
 * What the writer of one partition of the cluster a run writes to waits for there, and since when: its records'
 * acknowledgements (a send, a flush: the partition's leader answers those) or its commit (the transaction's and the
 * progress group's coordinators answer that; a transaction's commit also waits for its records).
 *
 * @param since when the wait began, on {@link System#nanoTime()}'s clock
 */
public record TargetWait(Kind kind, long since) {

    /** What is waited for. */
    public enum Kind {
        /** Records sent or flushed, not yet acknowledged. */
        RECORDS,
        /** A commit: the progress and, exactly once, the transaction. */
        COMMIT
    }
}
