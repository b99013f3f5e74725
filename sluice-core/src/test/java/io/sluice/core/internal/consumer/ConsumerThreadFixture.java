package io.sluice.core.internal.consumer;

import io.sluice.core.commit.InMemorySourceGroup;
import io.sluice.core.commit.SourceGroupCommit;
import io.sluice.core.internal.budget.MemoryBudget;
import io.sluice.core.internal.lane.Invoker;
import io.sluice.core.internal.lane.WorkerPool;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Semaphore;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.common.TopicPartition;

/**
 * The consumer thread's roles wired as the consumer loop wires them, over Kafka's {@link MockConsumer} (which keeps
 * the pause state the tests read) and an in-memory source group: the assigned partitions, a 64 MiB budget, the
 * ledger's commits (interval of an hour: only revoke and close commit), fetch pauses and completions.
 *
 * <p>Threading: the test thread plays the consumer thread.
 */
final class ConsumerThreadFixture {

    static final long MIB = 1024 * 1024;

    final MockConsumer<byte[], byte[]> consumer = new MockConsumer<>("earliest");
    final InMemorySourceGroup group = new InMemorySourceGroup("fixture");
    final SourceGroupCommit commitPoint = new SourceGroupCommit(group);
    final AssignedPartitions partitions = new AssignedPartitions();
    final MemoryBudget budget = new MemoryBudget(64 * MIB);
    final LedgerCommits commits = new LedgerCommits(commitPoint,
            new CommitSettings(Duration.ofHours(1), Duration.ofSeconds(5)), TestPartitions.TIMER);
    final FetchPauses pauses = new FetchPauses(consumer, partitions, null);
    final Completions completions = new Completions(partitions, budget, commits, pauses);
    private final List<TopicPartition> assignment = new ArrayList<>();

    /** A new assignment of {@code partition}, starting at {@code start}, as {@link Assignments} would make it. */
    PartitionState assign(TopicPartition partition, long start) {
        return assign(TestPartitions.state(partition, start, completions.queue()));
    }

    /**
     * As {@link #assign(TopicPartition, long)}, with lane 0 running {@code processor} on {@code pool}, its records in
     * flight limited by {@code inFlight} (null: by the worker count).
     */
    PartitionState assign(TopicPartition partition, long start, WorkerPool pool, Invoker processor,
            Semaphore inFlight) {
        return assign(TestPartitions.state(partition, start, pool, processor, completions.queue(), inFlight));
    }

    private PartitionState assign(PartitionState p) {
        if (!assignment.contains(p.partition)) {
            assignment.add(p.partition);
            consumer.assign(assignment);
        }
        partitions.add(p);
        commits.assigned(p, null);
        budget.partitionsAssigned(partitions.size());
        return p;
    }

    /** Hands out {@code [from, to)} as the dispatcher does, each record holding {@code bytes}. */
    void handOut(PartitionState p, long from, long to, long bytes) {
        for (long offset = from; offset < to; offset++) {
            p.ledger.dispatched(offset);
            p.bufferedBytes += bytes;
            budget.charge(bytes);
        }
    }
}
