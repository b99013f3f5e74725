package io.sluice.merge.write;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * What the merge did, per input: records merged, late ones among them (however the late policy placed them), dead
 * letters. Counted when handed to the transaction: a transaction that aborts makes them counted twice, so these are
 * for the progress line and metrics; verify counts what is committed.
 *
 * <p>Threading: any thread.
 */
public final class MergeCounts {

    private final AtomicLongArray merged;
    private final AtomicLongArray late;
    private final AtomicLongArray dead;

    public MergeCounts(int inputs) {
        merged = new AtomicLongArray(inputs);
        late = new AtomicLongArray(inputs);
        dead = new AtomicLongArray(inputs);
    }

    void merged(int input) {
        merged.incrementAndGet(input);
    }

    void late(int input) {
        late.incrementAndGet(input);
    }

    void deadLettered(int input) {
        dead.incrementAndGet(input);
    }

    public long merged() {
        return sum(merged);
    }

    public long late() {
        return sum(late);
    }

    public long deadLettered() {
        return sum(dead);
    }

    public long merged(int input, boolean lateOnly) {
        return lateOnly ? late.get(input) : merged.get(input);
    }

    private static long sum(AtomicLongArray a) {
        long s = 0;
        for (int i = 0; i < a.length(); i++) {
            s += a.get(i);
        }
        return s;
    }
}
