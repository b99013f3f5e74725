package io.sluice.core.internal.failure;

import io.sluice.core.FailureOutcome;
import java.util.function.Consumer;

/**
 * What happens when an attempt at a record fails: how many attempts, how long between them, and the outcome once all
 * failed. {@code deadLetters} is null unless the outcome is {@link FailureOutcome#DEAD_LETTER}; {@code stopEngine}
 * is how a record stops the engine.
 */
public record FailurePolicy(int maxAttempts, Backoff backoff, FailureOutcome outcome, DeadLetters deadLetters,
        Consumer<Throwable> stopEngine) {
}
