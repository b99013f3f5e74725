package io.sluice.core.commit;

import java.time.Duration;
import java.util.Optional;

/**
 * How long a cluster has not answered while something was expected of it, from regular looks: the rule behind
 * {@link TargetReach} and the merge's watch on each input cluster. A client hears from its cluster only while it asks
 * something (a producer with records to send, a consumer with partitions to fetch), so a silence counts only while
 * something is expected; an idle client owes nothing and never alarms. A gap between two looks longer than
 * {@link #STALLED} was this process not running (SIGSTOP, a machine asleep), not the cluster not answering: the count
 * starts again rather than blaming the cluster for the time.
 *
 * <p>Threading: none of its own; one thread at a time (its owner's lock or thread).
 */
public final class Silence {

    /** What a look changed. */
    public enum Turn {
        /** Nothing to say. */
        NONE,
        /** The silence has just reached the grace period: say so once. */
        BEGAN,
        /** The cluster answered after a silence that was said: say so once. */
        ENDED
    }

    /** Longer than this between two looks, and it was this process that did not run. */
    static final Duration STALLED = Duration.ofSeconds(5);

    private final long graceNanos;
    /** When the cluster last answered or nothing was expected of it, or 0 before the first look. */
    private long answeredAt;
    private long lookedAt;
    private boolean said;
    /** How long the cluster had been silent at the last look, before that look's answer. */
    private long silentNanos;

    public Silence(Duration grace) {
        if (grace.isNegative() || grace.isZero()) {
            throw new IllegalArgumentException("a silence's grace period must be positive, not " + grace);
        }
        this.graceNanos = grace.toNanos();
    }

    /**
     * One look at {@code now} (nanos): whether the cluster answered since the last look, and whether something is
     * expected of it now. Nothing is expected before the first look.
     */
    public Turn look(long now, boolean answered, boolean expecting) {
        boolean stalled = lookedAt != 0 && now - lookedAt >= STALLED.toNanos();
        boolean first = lookedAt == 0;
        lookedAt = now;
        silentNanos = first ? 0 : now - answeredAt;
        if (first || stalled) {
            answeredAt = now;
            return Turn.NONE;
        }
        if (answered || !expecting) {
            boolean ended = said && answered;
            said = false;
            answeredAt = now;
            return ended ? Turn.ENDED : Turn.NONE;
        }
        if (!said && now - answeredAt >= graceNanos) {
            said = true;
            return Turn.BEGAN;
        }
        return Turn.NONE;
    }

    /** How long the silence said has lasted as of {@code now}; empty while none is said. */
    public Optional<Duration> length(long now) {
        return said ? Optional.of(Duration.ofNanos(now - answeredAt)) : Optional.empty();
    }

    /**
     * Whole seconds the cluster had been silent (since it last answered, or nothing was expected of it) at the last
     * look: how long the silence lasted that {@link Turn#BEGAN} or {@link Turn#ENDED}.
     */
    public long seconds() {
        return silentNanos / 1_000_000_000L;
    }
}
