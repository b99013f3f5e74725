package io.sluice.cli.pipeline;

import io.sluice.cli.config.Settings;
import io.sluice.core.FailureOutcome;
import io.sluice.storage.sink.ArchiveSink;
import java.time.Duration;

/**
 * How a pipeline processes: parallelism, memory, commits, and what happens to records that cannot be written.
 *
 * <p>Immutable; validated at construction.
 *
 * @param deadLetterTopic    null when there is none
 * @param deadLetterRetryFor how long one dead letter waits for the brokers before the run stops on it
 */
public record ProcessingConfig(int concurrency, int compressingThreads, long memoryBudget, Duration commitInterval, Duration drainTimeout,
        int maxAttempts, Duration retryBackoff, Duration retryBackoffMax, FailureOutcome onFailure,
        String deadLetterTopic, Duration deadLetterRetryFor) {

    public ProcessingConfig {
        InvalidSetting.check(retryBackoffMax.compareTo(retryBackoff) >= 0, PipelineKeys.RETRY_BACKOFF_MAX,
                "must not be shorter than processing.retry-backoff");
        InvalidSetting.check(onFailure != FailureOutcome.DEAD_LETTER || deadLetterTopic != null,
                PipelineKeys.ON_FAILURE, "dead-letter needs processing.dead-letter-topic");
        InvalidSetting.check(deadLetterTopic == null || onFailure == FailureOutcome.DEAD_LETTER,
                PipelineKeys.DEAD_LETTER_TOPIC, "is set, but on-failure is " + onFailure.name().toLowerCase(
                        java.util.Locale.ROOT) + "; remove one of the two");
    }

    /** @param maxHeap the heap the run will have: the budget is derived from it, or must fit in it */
    static ProcessingConfig from(Settings s, long maxHeap) {
        long budget = s.find(PipelineKeys.MEMORY_BUDGET)
                .orElseGet(() -> HeapBudget.derived(maxHeap, Defaults.ENGINE.memoryBudgetBytes()));
        HeapBudget.problem(budget, maxHeap, s.isSet(PipelineKeys.MEMORY_BUDGET)).ifPresent(problem -> {
            throw new InvalidSetting(PipelineKeys.MEMORY_BUDGET, problem);
        });
        String dlq = s.get(PipelineKeys.DEAD_LETTER_TOPIC);
        FailureOutcome outcome = s.find(PipelineKeys.ON_FAILURE)
                .orElse(dlq != null ? FailureOutcome.DEAD_LETTER : Defaults.ENGINE.failureOutcome());
        return new ProcessingConfig(s.get(PipelineKeys.CONCURRENCY),
                s.find(PipelineKeys.COMPRESSING_THREADS).orElse(ArchiveSink.DEFAULT_COMPRESSING_THREADS),
                budget,
                s.get(PipelineKeys.COMMIT_INTERVAL), s.get(PipelineKeys.DRAIN_TIMEOUT), s.get(PipelineKeys.MAX_ATTEMPTS),
                s.get(PipelineKeys.RETRY_BACKOFF), s.get(PipelineKeys.RETRY_BACKOFF_MAX), outcome, dlq,
                s.get(PipelineKeys.DEAD_LETTER_RETRY_FOR));
    }
}
