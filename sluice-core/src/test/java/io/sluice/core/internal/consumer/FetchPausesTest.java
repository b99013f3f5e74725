package io.sluice.core.internal.consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumSet;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** Pause reasons: the consumer is told only when the first reason comes and the last goes. */
class FetchPausesTest {

    private static final TopicPartition P0 = new TopicPartition("orders", 0);
    private static final TopicPartition P1 = new TopicPartition("orders", 1);

    private final ConsumerThreadFixture loop = new ConsumerThreadFixture();
    private final FetchPauses pauses = loop.pauses;
    private final PartitionState p0 = loop.assign(P0, 0);
    private final PartitionState p1 = loop.assign(P1, 0);

    @Test
    void aPartitionIsFetchedAgainOnlyWhenItsLastReasonGoes() {
        pauses.pause(p0, PauseReason.BUDGET);
        pauses.pause(p0, PauseReason.WINDOW);
        assertEquals(Set.of(P0), loop.consumer.paused());

        pauses.unpause(p0, PauseReason.BUDGET);
        assertEquals(Set.of(P0), loop.consumer.paused(), "still a full window ahead");
        pauses.unpause(p0, PauseReason.RATE);
        assertEquals(Set.of(P0), loop.consumer.paused(), "a reason it never had does not resume it");

        pauses.unpause(p0, PauseReason.WINDOW);
        assertEquals(Set.of(), loop.consumer.paused());
        assertEquals(EnumSet.noneOf(PauseReason.class), p0.pauses);
    }

    @Test
    void operatorRequestsFromAnotherThreadApplyAtTheNextLoopAndLeaveOtherReasonsStanding()
            throws InterruptedException {
        onAnotherThread(() -> pauses.request(P0, true));
        assertEquals(Set.of(), loop.consumer.paused(), "the consumer is touched on its own thread only");
        assertTrue(pauses.operatorPaused(P0));

        pauses.applyOperatorRequests();
        assertEquals(Set.of(P0), loop.consumer.paused());
        pauses.pause(p0, PauseReason.BUDGET);
        onAnotherThread(() -> pauses.request(P0, false));
        pauses.applyOperatorRequests();

        assertEquals(EnumSet.of(PauseReason.BUDGET), p0.pauses);
        assertEquals(Set.of(P0), loop.consumer.paused(), "the operator's resume does not lift the budget's pause");
        pauses.unpause(p0, PauseReason.BUDGET);
        assertEquals(Set.of(), loop.consumer.paused());
    }

    @Test
    void theLoopPollsBrieflyOnlyForPausesThatCompletionsLift() {
        pauses.pause(p0, PauseReason.OPERATOR);
        pauses.pause(p1, PauseReason.END);
        assertFalse(pauses.anyWaitingOnCompletions());

        pauses.pause(p1, PauseReason.WINDOW);
        assertTrue(pauses.anyWaitingOnCompletions());
    }

    private static void onAnotherThread(Runnable request) throws InterruptedException {
        Thread operator = new Thread(request, "operator");
        operator.start();
        operator.join();
    }
}
