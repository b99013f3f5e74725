package io.sluice.reassign.execute;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The time left a run's progress line shows. */
class MoveProgressTest {

    private static final long MB = 1_000_000;

    @Test
    void timeLeftAtThisRunsRate() {
        MoveProgress p = new MoveProgress(1, 4, 30 * MB, 100 * MB, 0, Duration.ofSeconds(10), Set.of());
        assertEquals(Optional.of(Duration.ofMillis(23_333)), p.eta(), "70 MB left at 3 MB/s");
    }

    /**
     * A run that began with 8 MB already on the destinations (a cancelled run's, or a resumed one's) and copied 2 MB
     * in 10 s: the time left is at 0.2 MB/s, not at the 1 MB/s the first 10 MB over 10 s would say.
     */
    @Test
    void whatWasCopiedBeforeThisRunDoesNotSpeedItUp() {
        MoveProgress p = new MoveProgress(0, 4, 10 * MB, 26 * MB, 8 * MB, Duration.ofSeconds(10), Set.of());
        assertEquals(Optional.of(Duration.ofSeconds(80)), p.eta());
    }

    @Test
    void noTimeLeftBeforeThisRunCopiedAnything() {
        assertEquals(Optional.empty(),
                new MoveProgress(0, 4, 8 * MB, 26 * MB, 8 * MB, Duration.ofSeconds(10), Set.of()).eta());
    }

    /** While a destination broker does not answer, the rate falls with every poll: no time left is guessed. */
    @Test
    void noTimeLeftWhileABrokerTheMovesWaitForDoesNotAnswer() {
        assertEquals(Optional.empty(),
                new MoveProgress(1, 4, 30 * MB, 100 * MB, 0, Duration.ofSeconds(10), Set.of(4)).eta());
    }
}
