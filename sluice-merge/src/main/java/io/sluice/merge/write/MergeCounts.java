package io.sluice.merge.write;

import java.util.Optional;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;

/**
 * What the merge did, per input: records merged, late ones among them (however the late policy placed them), dead
 * letters; and how the input was aligned: how often one of its partitions was paused for holding its share of the
 * budget, and the most bytes one of its partitions held read but not merged. Records are counted when their output
 * partition's commit made them durable: a merge started again after a failure merges the records of its aborted
 * transaction again, and a count at the send counted them twice (the stop line said 250 records merged for 200).
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

    /** How many inputs these counts are of. */
    public int inputs() {
        return merged.length();
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

    /** What an output partition's commit made durable: its records of {@code input} since its last commit. */
    void committed(int input, long mergedRecords, long lateRecords, long deadLetters) {
        // late and dead first: a reader that sees the records merged sees those among them that were late
        late.addAndGet(input, lateRecords);
        dead.addAndGet(input, deadLetters);
        merged.addAndGet(input, mergedRecords);
    }

    /** Keeps the first reason a record was set aside, whether or not its transaction commits: it is the same. */
    void setAside(String whereAndWhy) {
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
