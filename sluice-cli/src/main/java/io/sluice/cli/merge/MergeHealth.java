package io.sluice.cli.merge;

import io.sluice.cli.status.RunHealth;
import io.sluice.core.Health;
import io.sluice.merge.Merge;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.function.BooleanSupplier;

/**
 * A running merge as {@code /health} and {@code /ready} see it: failed once its failure is known, draining once a stop
 * was asked for, running otherwise, ready while it merges output partitions.
 *
 * <p>Threading: any thread (the merge's failure and partition count are safe to read from any).
 */
final class MergeHealth implements RunHealth {

    private final Merge merge;
    private final BooleanSupplier stopping;

    MergeHealth(Merge merge, BooleanSupplier stopping) {
        this.merge = merge;
        this.stopping = stopping;
    }

    @Override
    public String what() {
        return "the merge";
    }

    @Override
    public Health health() {
        return merge.failure().isCompletedExceptionally() ? Health.FAILED
                : stopping.getAsBoolean() ? Health.DRAINING : Health.RUNNING;
    }

    @Override
    public Optional<Throwable> failure() {
        if (!merge.failure().isCompletedExceptionally()) {
            return Optional.empty();
        }
        try {
            merge.failure().join();
            return Optional.empty(); // never: the merge's failure never completes normally
        } catch (CompletionException e) {
            return Optional.ofNullable(e.getCause());
        }
    }

    @Override
    public int partitions() {
        return merge.partitions();
    }
}
