package io.sluice.core.internal.lane;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The partition side of a lane, recording what the lane reports: completions in the order they arrive, and attempts
 * begun, ended and settled (every attempt must end and be settled exactly once, whoever ends it). Tests wait on completions, never on time.
 *
 * <p>Threading: workers and completing threads report; the test thread reads and flips {@link #close}.
 */
final class RecordingPartition implements PartitionWork {

    /** Only bounds a test that fails: a test that passes never waits this long. */
    static final long WAIT_SECONDS = 10;

    private final List<Long> completed = new ArrayList<>();
    private final Semaphore completions = new Semaphore(0);
    private final AtomicInteger started = new AtomicInteger();
    private final AtomicInteger ended = new AtomicInteger();
    private final AtomicInteger settled = new AtomicInteger();
    private volatile boolean open = true;

    @Override
    public boolean isOpen() {
        return open;
    }

    void close() {
        open = false;
    }

    @Override
    public boolean attemptStarted() {
        started.incrementAndGet();
        return true;
    }

    @Override
    public void attemptEnded() {
        ended.incrementAndGet();
    }

    @Override
    public void attemptSettled() {
        settled.incrementAndGet();
    }

    @Override
    public void completed(long offset, long bytes, long startNanos) {
        synchronized (completed) {
            completed.add(offset);
        }
        completions.release();
    }

    /** Waits for {@code count} more completions; returns every completion so far, in order. */
    List<Long> awaitCompletions(int count) throws InterruptedException {
        assertTrue(completions.tryAcquire(count, WAIT_SECONDS, TimeUnit.SECONDS),
                "expected " + count + " more completions; so far " + completedSoFar());
        return completedSoFar();
    }

    List<Long> completedSoFar() {
        synchronized (completed) {
            return new ArrayList<>(completed);
        }
    }

    /** Attempts begun and not yet ended. */
    int running() {
        return started.get() - ended.get();
    }

    /** Attempts begun whose outcome the lane has not settled yet: what a revocation's drain would wait for. */
    int unsettled() {
        return started.get() - settled.get();
    }

    int attemptsStarted() {
        return started.get();
    }
}
