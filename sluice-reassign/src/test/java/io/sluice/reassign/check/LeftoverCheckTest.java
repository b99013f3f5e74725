package io.sluice.reassign.check;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.reassign.plan.PartitionMove;
import java.util.List;
import org.apache.kafka.clients.admin.PartitionReassignment;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** A move under way, as check reads it from Kafka's answer. */
class LeftoverCheckTest {

    /**
     * Kafka lists a moving partition's old and new replicas together: the move adds 4 and removes 1. Read as a move
     * from the whole list, it added nothing (`stalled move of orders-0 to brokers []`), so no move could be seen to
     * grow and `check --fix` cancelled healthy ones (a new user's run).
     */
    @Test
    void aMoveUnderWayIsFromTheReplicasNotBeingAddedToThoseNotBeingRemoved() {
        PartitionMove move = LeftoverCheck.moveOf(new TopicPartition("orders", 0),
                new PartitionReassignment(List.of(4, 2, 3, 1), List.of(4), List.of(1)));
        assertEquals(List.of(2, 3, 1), move.from());
        assertEquals(List.of(4, 2, 3), move.to());
        assertEquals(List.of(4), move.adding());
    }
}
