package io.sluice.core.internal.consumer;

import static io.sluice.core.internal.EngineLog.LOG;

import io.sluice.core.DrainAbandonedException;
import io.sluice.core.sink.Sink;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Lets a drain stop waiting for what its sink cannot finish: once the drain started, each wait of it (for records
 * still running, for the last checkpoints and commits) asks the sink a few times a second
 * ({@link Sink#unableToFinish}); when the sink says it cannot, the engine fails with a
 * {@link DrainAbandonedException}, which lets go of what was not committed, so the waits end at once instead of each
 * running out the drain timeout.
 *
 * <p>Threading: the consumer thread (the drain's waits are all there).
 */
final class DrainWatch {

    private static final long LOOK_EVERY_NANOS = TimeUnit.MILLISECONDS.toNanos(200);

    private final Sink sink;
    private final EngineFailure failure;
    private final LongSupplier clock;
    private boolean armed;
    private boolean gaveUp;
    private long lookedAt;

    /** @param sink the engine's sink, or null (a handler's engine: nothing to ask) */
    DrainWatch(Sink sink, EngineFailure failure) {
        this(sink, failure, System::nanoTime);
    }

    /** With {@code clock} (nanos) for the pause between two looks. */
    DrainWatch(Sink sink, EngineFailure failure, LongSupplier clock) {
        this.sink = sink;
        this.failure = failure;
        this.clock = clock;
    }

    /** The drain starts: from now on {@link #look} asks the sink, first at once. */
    void arm() {
        armed = true;
        lookedAt = clock.getAsLong() - LOOK_EVERY_NANOS;
        look();
    }

    /** Asks the sink, unless it was asked less than 200 ms ago, before the drain, or the engine failed already. */
    void look() {
        long now = clock.getAsLong();
        if (!armed || sink == null || gaveUp || failure.get() != null || now - lookedAt < LOOK_EVERY_NANOS) {
            return;
        }
        lookedAt = now;
        sink.unableToFinish().ifPresent(why -> {
            gaveUp = true;
            LOG.warn("stopping without the last commit: {}; what was not committed is let go of now", why);
            failure.record(new DrainAbandonedException(why));
        });
    }

    /** Whether the drain gave up on the sink: its waits end. */
    boolean gaveUp() {
        return gaveUp;
    }

    /** Looks, and says whether the drain gave up: for the waits, which end then. */
    boolean lookAndGiveUp() {
        look();
        return gaveUp;
    }
}
