package io.sluice.core.internal.consumer;

import io.sluice.core.ErrorWords;
import static io.sluice.core.internal.EngineLog.LOG;

import java.time.Duration;

/**
 * Says in the log when commits fail, without a line per interval: while the coordinator is away (a broker outage, a
 * cut network) every interval's commit fails at once, which was a warning a second for as long as the outage lasted
 * (86,000 a day), each saying the same. The first failure of a streak is said with its reason; later ones are counted
 * and said at most once per {@link #EVERY}; the first success after a streak says how long it lasted.
 *
 * <p>Threading: any thread (the commit callbacks run on the consumer thread; lanes may report too), under this
 * object's lock.
 */
final class CommitFailures {

    static final Duration EVERY = Duration.ofMinutes(1);

    private final long everyNanos;
    /** When the streak's first failure came; 0 while commits succeed. */
    private long streakSince;
    private long failures;
    private long unsaid;
    private long saidAt;

    CommitFailures() {
        this(EVERY);
    }

    CommitFailures(Duration every) {
        this.everyNanos = every.toNanos();
    }

    /** A commit of {@code what} (partitions, in words) failed at {@code now} (nanos) because of {@code error}. */
    synchronized void failed(Object what, Throwable error, long now) {
        failures++;
        if (streakSince == 0) {
            streakSince = now;
            saidAt = now;
            LOG.warn("commit of {} failed: {}; the next interval commits the newer state", what, ErrorWords.of(error));
            return;
        }
        unsaid++;
        if (now - saidAt >= everyNanos) {
            LOG.warn("commits have failed {} times in {} s (the last: {}); each interval tries again", failures,
                    (now - streakSince) / 1_000_000_000L, ErrorWords.of(error));
            saidAt = now;
            unsaid = 0;
        }
    }

    /** A commit succeeded at {@code now}: ends a streak of failures, if there was one. */
    synchronized void succeeded(long now) {
        if (streakSince == 0) {
            return;
        }
        LOG.info("commits succeed again, after {} failed in {} s", failures, (now - streakSince) / 1_000_000_000L);
        streakSince = 0;
        failures = 0;
        unsaid = 0;
    }

    /** Failures not said since the last line (for tests). */
    synchronized long unsaid() {
        return unsaid;
    }
}
