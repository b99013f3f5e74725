package io.sluice.core.internal.consumer;

import io.sluice.core.internal.budget.QueueDepth;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.core.internal.lane.Invoker;
import io.sluice.core.internal.lane.TestRecords;
import io.sluice.core.internal.lane.WorkerPool;
import io.sluice.core.internal.ledger.CompletionMap;
import io.sluice.core.internal.ledger.PartitionLedger;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;

/** Assigned-partition state for unit tests, as the partition factory makes it, with a window of 64 offsets. */
final class TestPartitions {

    static final Timer TIMER = new SimpleMeterRegistry().timer("test.timer");

    private TestPartitions() {
    }

    /** A partition whose lanes are never used: for the consumer thread's bookkeeping. */
    static PartitionState state(TopicPartition partition, long start, Queue<Completion> completions) {
        return state(partition, start, null, null, completions, null);
    }

    /** A partition whose lane 0 runs {@code invoker} on {@code pool}. */
    static PartitionState state(TopicPartition partition, long start, WorkerPool pool, Invoker invoker) {
        return state(partition, start, pool, invoker, new ConcurrentLinkedQueue<>(), null);
    }

    /**
     * A partition whose lane 0 runs {@code invoker} on {@code pool} and reports to {@code completions}, its records
     * in flight limited by {@code inFlight} (null: by the worker count) as for an asynchronous handler.
     */
    static PartitionState state(TopicPartition partition, long start, WorkerPool pool, Invoker invoker,
            Queue<Completion> completions, Semaphore inFlight) {
        PartitionState p = new PartitionState(partition, new PartitionLedger(start, 64), CompletionMap.empty(start), 1,
                pool, invoker, completions, inFlight, TIMER, new QueueDepth(1024 * 1024));
        p.topicId = Uuid.randomUuid();
        return p;
    }

    /** Hands out the records {@code [from, to)} as the dispatcher does: ledger first, then lane 0. */
    static void dispatch(PartitionState p, long from, long to) {
        for (long offset = from; offset < to; offset++) {
            p.ledger.dispatched(offset);
            p.lane(0).add(TestRecords.at(p.partition, offset));
        }
    }

    /** The ledger's side only of handing out {@code [from, to)} and then finishing {@code done} of them. */
    static void progress(PartitionState p, long from, long to, long... done) {
        for (long offset = from; offset < to; offset++) {
            p.ledger.dispatched(offset);
        }
        for (long offset : done) {
            p.ledger.completed(offset);
        }
    }
}
