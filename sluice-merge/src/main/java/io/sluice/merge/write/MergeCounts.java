package io.sluice.merge.write;

import java.util.Optional;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;

/**
 * What the merge did, per input: records merged, late ones among them (however the late policy placed them), dead
 * letters; and how the input was aligned: how often one of its partitions was paused for holding its share of the
 * budget, and the most bytes one of its partitions held read but not merged. Counted when handed to the transaction: a transaction that aborts makes them counted twice, so these are
 * for the progress line and metrics; verify counts what is committed.
 *
 * <p>Threading: any thread.
 */
public final class MergeCounts {

    private final AtomicLongArray merged;
    private final AtomicLongArray late;
    private final AtomicLongArray dead;
    private final AtomicLongArray pauses;
    private final AtomicLongArray peakHeld;
    /** Where the first dead letter came from and why: what a run that dead-letters everything must say. */
    private final AtomicReference<String> firstDeadLetter = new AtomicReference<>();

    public MergeCounts(int inputs) {
        merged = new AtomicLongArray(inputs);
        late = new AtomicLongArray(inputs);
        dead = new AtomicLongArray(inputs);
        pauses = new AtomicLongArray(inputs);
        peakHeld = new AtomicLongArray(inputs);
    }

    /** A partition of {@code input} was paused: it holds its share of the budget. */
    public void paused(int input) {
        pauses.incrementAndGet(input);
    }

    /** A partition of {@code input} holds {@code bytes} read but not merged (right after a batch was added). */
    public void held(int input, long bytes) {
        peakHeld.accumulateAndGet(input, bytes, Math::max);
    }

    /** How often a partition of {@code input} was paused for alignment. */
    public long pauses(int input) {
        return pauses.get(input);
    }

    /** The most bytes a partition of {@code input} held read but not merged, as the budget counts them. */
    public long peakHeld(int input) {
        return peakHeld.get(input);
    }

    void merged(int input) {
        merged.incrementAndGet(input);
    }

    void late(int input) {
        late.incrementAndGet(input);
    }

    void deadLettered(int input, String whereAndWhy) {
        dead.incrementAndGet(input);
        firstDeadLetter.compareAndSet(null, whereAndWhy);
    }

    /** The first dead letter's origin and reason, if there was one. */
    public Optional<String> firstDeadLetter() {
        return Optional.ofNullable(firstDeadLetter.get());
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
