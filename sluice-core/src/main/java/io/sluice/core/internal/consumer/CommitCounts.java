package io.sluice.core.internal.consumer;

import java.util.concurrent.atomic.LongAdder;

/** Commits the commit point took and refused or lost, counted by a {@link CommitPolicy}; read from any thread. */
final class CommitCounts {

    private final LongAdder commits = new LongAdder();
    private final LongAdder failures = new LongAdder();

    void succeeded() {
        commits.increment();
    }

    void failed() {
        failures.increment();
    }

    long commits() {
        return commits.sum();
    }

    long failures() {
        return failures.sum();
    }
}
