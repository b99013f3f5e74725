package io.sluice.core.internal.consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.sluice.core.OutOfRangePolicy;
import io.sluice.core.StartPosition;
import io.sluice.core.TimestampStart;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * Partitions leaving: a revoked one finishes its records in flight and commits; a lost one commits nothing. (The
 * assigning side needs the topics' IDs from a cluster; the integration tests cover it.)
 */
class AssignmentsTest {

    private static final TopicPartition P0 = new TopicPartition("orders", 0);
    private static final TopicPartition P1 = new TopicPartition("orders", 1);

    private final ConsumerThreadFixture loop = new ConsumerThreadFixture();
    private final Assignments assignments = new Assignments(loop.consumer,
            new StartSettings(StartPosition.EARLIEST, OutOfRangePolicy.FAIL, null, TimestampStart.UNCOMMITTED, 64,
                    Duration.ofSeconds(10)),
            loop.commitPoint, loop.commits, null, loop.partitions, null, loop.completions, loop.pauses, loop.budget,
            null);
    private final PartitionState p0 = loop.assign(P0, 0);
    private final PartitionState p1 = loop.assign(P1, 0);

    @Test
    void aRevokedPartitionFinishesItsRecordInFlightThenCommitsAndIsForgotten() throws InterruptedException {
        loop.handOut(p0, 0, 3, 100);
        p0.completed(0, 100, System.nanoTime());
        p0.completed(1, 100, System.nanoTime());
        p0.attemptStarted(); // record 2 runs on a worker
        Thread worker = new Thread(() -> {
            while (p0.isOpen()) {
                Thread.onSpinWait(); // the revocation closes the partition first, then waits for this record
            }
            p0.completed(2, 100, System.nanoTime());
            p0.attemptEnded();
        }, "worker");
        worker.start();

        assignments.onPartitionsRevoked(List.of(P0));
        worker.join();

        assertEquals(3, loop.group.committedNow().get(P0).offset(), "the record in flight is done, not replayed");
        assertNull(loop.partitions.get(P0));
        assertSame(p1, loop.partitions.get(P1));
        assertEquals(0, loop.budget.used());
        assertEquals(1, assignments.revoked());
    }

    @Test
    void aLostPartitionIsForgottenWithoutACommit() {
        loop.handOut(p0, 0, 3, 100);
        p0.completed(0, 100, System.nanoTime());
        loop.completions.take();

        assignments.onPartitionsLost(List.of(P0));

        assertEquals(List.of(), loop.group.sent(), "another member may own it already");
        assertFalse(p0.isOpen(), "no record of it starts any more");
        assertNull(loop.partitions.get(P0));
        assertEquals(0, loop.budget.used());
        assertEquals(1, assignments.lost());
    }
}
