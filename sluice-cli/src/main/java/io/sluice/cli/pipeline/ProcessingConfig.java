package io.sluice.cli.pipeline;

import io.sluice.cli.config.Problems;
import io.sluice.cli.config.Settings;
import io.sluice.core.FailureOutcome;
import io.sluice.storage.sink.ArchiveSink;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

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
        List<InvalidSetting> broken = broken(retryBackoff, retryBackoffMax, onFailure, deadLetterTopic);
        if (!broken.isEmpty()) {
            throw broken.get(0);
        }
    }

    /** Every rule between these settings that they break: all of them, so that a file's one pass says each. */
    private static List<InvalidSetting> broken(Duration retryBackoff, Duration retryBackoffMax,
            FailureOutcome onFailure, String deadLetterTopic) {
        List<InvalidSetting> broken = new ArrayList<>();
        if (retryBackoffMax.compareTo(retryBackoff) < 0) {
            broken.add(new InvalidSetting(PipelineKeys.RETRY_BACKOFF_MAX,
                    "must not be shorter than processing.retry-backoff"));
        }
        if (onFailure == FailureOutcome.DEAD_LETTER && deadLetterTopic == null) {
            broken.add(new InvalidSetting(PipelineKeys.ON_FAILURE, "dead-letter needs processing.dead-letter-topic"));
        }
        if (deadLetterTopic != null && onFailure != FailureOutcome.DEAD_LETTER) {
            broken.add(new InvalidSetting(PipelineKeys.DEAD_LETTER_TOPIC, "is set, but on-failure is "
                    + onFailure.name().toLowerCase(Locale.ROOT) + "; remove one of the two"));
        }
        return broken;
    }

    /**
     * The processing section of {@code s}, or null when it has mistakes: then every one of them is in
     * {@code problems}.
     *
     * @param maxHeap the heap the run will have: the budget is derived from it, or must fit in it
     */
    static ProcessingConfig from(Settings s, long maxHeap, Problems problems) {
        long budget = s.find(PipelineKeys.MEMORY_BUDGET)
                .orElseGet(() -> HeapBudget.derived(maxHeap, Defaults.ENGINE.memoryBudgetBytes()));
        String dlq = s.get(PipelineKeys.DEAD_LETTER_TOPIC);
        FailureOutcome outcome = s.find(PipelineKeys.ON_FAILURE)
                .orElse(dlq != null ? FailureOutcome.DEAD_LETTER : Defaults.ENGINE.failureOutcome());
        List<InvalidSetting> broken = new ArrayList<>();
        HeapBudget.problem(budget, maxHeap, s.isSet(PipelineKeys.MEMORY_BUDGET))
                .ifPresent(problem -> broken.add(new InvalidSetting(PipelineKeys.MEMORY_BUDGET, problem)));
        broken.addAll(broken(s.get(PipelineKeys.RETRY_BACKOFF), s.get(PipelineKeys.RETRY_BACKOFF_MAX), outcome, dlq));
        if (!broken.isEmpty()) {
            broken.forEach(e -> problems.add(s.at(e.key()), e.getMessage()));
            return null;
        }
        return new ProcessingConfig(s.get(PipelineKeys.CONCURRENCY),
                s.find(PipelineKeys.COMPRESSING_THREADS).orElse(ArchiveSink.DEFAULT_COMPRESSING_THREADS),
                budget,
                s.get(PipelineKeys.COMMIT_INTERVAL), s.get(PipelineKeys.DRAIN_TIMEOUT), s.get(PipelineKeys.MAX_ATTEMPTS),
                s.get(PipelineKeys.RETRY_BACKOFF), s.get(PipelineKeys.RETRY_BACKOFF_MAX), outcome, dlq,
                s.get(PipelineKeys.DEAD_LETTER_RETRY_FOR));
    }
}
