package io.sluice.core.internal.consumer;

import static org.junit.jupiter.api.Assertions.assertSame;

import io.sluice.core.DrainAbandonedException;
import io.sluice.core.RecordsLostException;
import org.junit.jupiter.api.Test;

/**
 * Which failure a stop reports when records were lost at a gap: the loss, recorded after the last commit, unless the
 * engine failed otherwise first; a drain that gave up on a silent destination lost nothing, so the loss still wins
 * over it (a review found the run then said "stopped without the last commit" and exited 0, the loss unsaid).
 */
class EngineFailureTest {

    private final EngineFailure failure = new EngineFailure(() -> { });
    private final RecordsLostException lost = new RecordsLostException("orders-0: offsets 0 to 99 were deleted",
            "reset past them");

    @Test
    void aLossIsTheFailureOfARunThatDidNotFailOtherwise() {
        failure.recordCommitted(lost);
        assertSame(lost, failure.get());
    }

    @Test
    void aLossWinsOverADrainThatGaveUpOnASilentDestination() {
        failure.record(new DrainAbandonedException("the target cluster (t:9092) has not answered for 40 s"));
        failure.recordCommitted(lost);
        assertSame(lost, failure.get());
    }

    @Test
    void anEarlierFailureOfAnotherKindStays() {
        IllegalStateException refused = new IllegalStateException("a commit was refused");
        failure.fail(refused);
        failure.recordCommitted(lost);
        assertSame(refused, failure.get());
    }
}
