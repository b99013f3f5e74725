package io.sluice.core.internal.consumer;

import io.sluice.core.commit.InMemorySourceGroup;
import io.sluice.core.commit.SourceGroupCommit;
import io.sluice.core.internal.budget.MemoryBudget;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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
        if (!assignment.contains(partition)) {
            assignment.add(partition);
            consumer.assign(assignment);
        }
        PartitionState p = TestPartitions.state(partition, start, completions.queue());
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
