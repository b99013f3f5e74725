package io.sluice.core.internal.consumer;

import io.micrometer.core.instrument.Timer;
import io.sluice.core.internal.budget.QueueDepth;
import io.sluice.core.internal.lane.Invoker;
import io.sluice.core.internal.lane.WorkerPool;
import io.sluice.core.internal.ledger.CompletionMap;
import io.sluice.core.internal.ledger.PartitionLedger;
import java.util.Queue;
import java.util.concurrent.Semaphore;
import org.apache.kafka.common.TopicPartition;

/**
 * Makes the state of a newly assigned partition: its ledger and its lanes on the shared worker pool, which report to
 * the consumer thread's completion queue.
 *
 * @param inFlight   the engine's limit on records in flight, or null when the worker count is the limit
 * @param fetchBytes the consumer's fetch size for a partition: the unit of each partition's {@link QueueDepth}
 */
record PartitionFactory(int lanesPerPartition, int window, WorkerPool pool, Invoker invoker,
        Queue<Completion> completions, Semaphore inFlight, Timer processing, long fetchBytes) {

    /** @param done what an earlier owner finished beyond {@code start} (the commit's completion map) */
    PartitionState create(TopicPartition partition, long start, CompletionMap done) {
        return new PartitionState(partition, new PartitionLedger(start, window, done), done, lanesPerPartition, pool,
                invoker, completions, inFlight, processing, new QueueDepth(fetchBytes));
    }
}
