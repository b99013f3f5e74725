package io.sluice.core.internal.consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.core.Ordering;
import io.sluice.core.internal.budget.MemoryBudget;
import io.sluice.core.internal.lane.LaneRouter;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.WakeupException;
import org.junit.jupiter.api.Test;

/**
 * The positions past markers are asked without waiting: a position under validation after a leader change is not
 * known until the new leader answers, and the default wait held the whole loop up to a minute, then failed the
 * engine (a review). Kafka's {@link MockConsumer}, its wait-less position made to fail as a validating consumer's does.
 */
class DispatcherPositionsTest {

    private static final TopicPartition P0 = new TopicPartition("orders", 0);

    private RuntimeException positionFails;
    private final MockConsumer<byte[], byte[]> consumer = new MockConsumer<>("earliest") {
        /** Whether the call is within {@link #position(TopicPartition, Duration)}, which the mock's goes through. */
        private boolean timed;

        @Override
        public synchronized long position(TopicPartition partition, Duration timeout) {
            if (positionFails != null) {
                throw positionFails;
            }
            assertEquals(Duration.ZERO, timeout, "asked without waiting");
            timed = true;
            try {
                return super.position(partition, timeout);
            } finally {
                timed = false;
            }
        }

        @Override
        public synchronized long position(TopicPartition partition) {
            if (!timed) {
                throw new AssertionError("a position asked with the default wait (a minute) holds the loop");
            }
            return super.position(partition);
        }
    };
    private final AssignedPartitions partitions = new AssignedPartitions();
    private final Dispatcher dispatcher = new Dispatcher(consumer, partitions, new LaneRouter(Ordering.PARTITION, null, 1),
            new MemoryBudget(1024 * 1024), new LedgerCommits(null, new CommitSettings(Duration.ofHours(1),
            Duration.ofSeconds(10)), TestPartitions.TIMER), new FetchPauses(consumer, partitions, null),
            RunEnd.unbounded());

    @Test
    void aPositionNotKnownYetIsTakenAtALaterTurn() {
        PartitionState p = TestPartitions.state(P0, 0, new ConcurrentLinkedQueue<>());
        consumer.assign(List.of(P0));
        consumer.seek(P0, 7); // past markers the application never sees
        partitions.add(p);

        positionFails = new TimeoutException("Timeout of 0ms expired before the position for partition orders-0 "
                + "could be determined");
        dispatcher.advancePositions();
        assertEquals(0, p.ledger.end(), "nothing to go by yet");
        positionFails = new WakeupException();
        dispatcher.advancePositions(); // a stop's wakeup is the loop's to look at, not a failure
        assertEquals(0, p.ledger.end());

        positionFails = null;
        dispatcher.advancePositions();
        assertEquals(7, p.ledger.end(), "taken once known");
    }
}
