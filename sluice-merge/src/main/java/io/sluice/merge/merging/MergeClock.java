package io.sluice.merge.merging;

/**
 * The merge's time for its waits (an input silent for the longest wait, an end confirmed recently, a commit due), in
 * milliseconds on {@link System#nanoTime}'s clock, which only moves forward. The wall clock could jump: a forward step
 * (NTP, a resumed VM) of the longest wait gave an input that was merely between two fetches up as silent, so its next
 * records were late; a backward one made an old confirmation of an input's end look fresh. Event times stay on their
 * own clock, the records'.
 *
 * <p>Stateless.
 */
public final class MergeClock {

    /** Before any time {@link #now} gives: "never", for an end not confirmed yet. */
    public static final long NEVER = Long.MIN_VALUE / 4;

    private MergeClock() {
    }

    public static long now() {
        return System.nanoTime() / 1_000_000;
    }
}
