package io.sluice.core.internal.consumer;

import io.sluice.core.ErrorWords;
import static io.sluice.core.internal.EngineLog.LOG;

import io.sluice.core.DrainAbandonedException;
import io.sluice.core.RecordsLostException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Why the engine stops, if it does: the first error wins. Workers, the sink and the consumer thread report here;
 * reporting wakes the consumer from its poll, so the loop sees the failure at once. It exists before the loop and the
 * record processor, which both need it, so neither has to be built first.
 *
 * <p>Threading: safe from any thread.
 */
public final class EngineFailure {

    private final AtomicReference<Throwable> first = new AtomicReference<>();
    private final Runnable wakeup;
    /** Run once at the first failure; set by {@link #whenFailed}. */
    private volatile Runnable onFailure;

    /** @param wakeup interrupts the consumer's poll ({@code consumer::wakeup}) */
    public EngineFailure(Runnable wakeup) {
        this.wakeup = wakeup;
    }

    /** Stops the engine because of {@code error}, unless it already stops for an earlier one. */
    public void fail(Throwable error) {
        if (first.compareAndSet(null, error)) {
            // the reason in words; the exception itself (its class, its stack) for --verbose readers of the log
            // (what was lost without the advice, which is the engine's API's: a command gives its own)
            String why = error instanceof RecordsLostException lost ? lost.lost() : ErrorWords.of(error);
            LOG.error("engine stopping: {}", why, error);
            Runnable then = onFailure;
            if (then != null) {
                then.run();
            }
        }
        wakeup.run();
    }

    /**
     * Runs {@code action} at the first failure, on the thread that reports it, or now when the engine failed already;
     * one action, set once (the engine's drain). It may run twice when a failure comes while it is being set: it must
     * be idempotent.
     */
    void whenFailed(Runnable action) {
        onFailure = action;
        if (first.get() != null) {
            action.run();
        }
    }

    /** Records {@code error} as the reason when there is none yet, without waking anyone (the loop is ending). */
    void record(Throwable error) {
        if (first.compareAndSet(null, error)) {
            Runnable then = onFailure;
            if (then != null) {
                then.run();
            }
        }
    }

    /**
     * Records {@code lost} as the reason when there is none yet, once the engine committed what it could (records
     * lost at a gap, {@link Gaps}): said in the log, and nothing is let go of, since nothing is left uncommitted.
     */
    void recordCommitted(RecordsLostException lost) {
        // a drain that gave up on its sink (its destination silent) lost nothing: the records lost at a gap are still
        // the run's failure, with the way on that they need (else a stop said "nothing lost" and exited 0)
        Throwable before = first.get();
        if (before instanceof DrainAbandonedException && first.compareAndSet(before, lost)
                || first.compareAndSet(null, lost)) {
            // the losses were said in full when found; this says why a stop that committed everything still failed
            LOG.info("engine stopped; it ends failed for the records lost in {}, as said when they were found",
                    lost.losses().stream().map(l -> l.partition().toString()).toList());
        }
    }

    /** The error that stops the engine, or null. */
    public Throwable get() {
        return first.get();
    }
}
