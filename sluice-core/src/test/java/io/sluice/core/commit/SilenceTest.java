package io.sluice.core.commit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.sluice.core.commit.Silence.Turn;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The rule of a silence, look by look; pure logic. */
class SilenceTest {

    private static final long SECOND = 1_000_000_000L;
    private final Silence silence = new Silence(Duration.ofSeconds(10));

    /** Looks every second from {@code from} to {@code to} (seconds) with nothing heard; the turns seen. */
    private String silentLooks(long from, long to, boolean expecting) {
        StringBuilder turns = new StringBuilder();
        for (long s = from; s <= to; s++) {
            Turn turn = silence.look(s * SECOND, false, expecting);
            if (turn != Turn.NONE) {
                turns.append(s).append(':').append(turn).append(' ');
            }
        }
        return turns.toString().trim();
    }

    @Test
    void aSilenceIsSaidOnceAtTheGracePeriodAndItsEndOnceWhenTheClusterAnswers() {
        silence.look(SECOND, false, true); // the first look: nothing was expected before it
        assertEquals("11:BEGAN", silentLooks(2, 15, true));
        assertEquals(Optional.of(Duration.ofSeconds(14)), silence.length(15 * SECOND));
        assertEquals(Turn.ENDED, silence.look(16 * SECOND, true, true));
        assertEquals(15, silence.seconds(), "how long it lasted, for the words");
        assertEquals(Optional.empty(), silence.length(16 * SECOND));
        assertEquals("26:BEGAN", silentLooks(17, 26, true), "counted again from the answer");
    }

    @Test
    void nothingExpectedIsNoSilenceAndEndsOneWithoutWords() {
        silence.look(SECOND, false, false);
        assertEquals("", silentLooks(2, 60, false), "an idle client hears nothing and owes nothing");
        assertEquals("70:BEGAN", silentLooks(61, 70, true));
        assertEquals(Turn.NONE, silence.look(71 * SECOND, false, false), "no longer expecting: not an answer");
        assertEquals(Optional.empty(), silence.length(71 * SECOND));
    }

    @Test
    void aGapBetweenLooksIsThisProcessNotRunningAndStartsTheCountAgain() {
        silence.look(SECOND, false, true);
        silentLooks(2, 8, true);
        assertEquals("", silentLooks(20, 25, true), "12 s without a look (SIGSTOP): counted from 20 s, not 0");
        assertEquals("30:BEGAN", silentLooks(26, 30, true));
    }

    @Test
    void theGracePeriodMustBePositive() {
        assertThrows(IllegalArgumentException.class, () -> new Silence(Duration.ZERO));
    }
}
