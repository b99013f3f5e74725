package io.sluice.cli.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The pauses between starts: doubling while the trouble lasts, up to a minute, and from the first again after a run
 * that went on for five minutes or made progress (two instances fencing each other in turn waited 40 s after runs
 * that had copied for half a minute: a chaos run).
 */
class RestartPauseTest {

    private final RestartPause pause = new RestartPause("sluice mirror", "the mirror", line -> { });

    @Test
    void pausesDoubleUpToAMinuteWhileRunsFailAtOnce() {
        List<Duration> pauses = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            pauses.add(pause.next(i == 0 ? null : Duration.ofSeconds(2), false));
        }
        assertEquals(List.of(Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofSeconds(20),
                Duration.ofSeconds(40), Duration.ofMinutes(1), Duration.ofMinutes(1)), pauses);
    }

    @Test
    void aRunThatMadeProgressOrWentOnForFiveMinutesStartsThePausesAgain() {
        pause.next(null, false);
        pause.next(Duration.ofSeconds(3), false);
        assertEquals(Duration.ofSeconds(20), pause.next(Duration.ofSeconds(3), false));
        assertEquals(Duration.ofSeconds(5), pause.next(Duration.ofSeconds(38), true), "a run that copied");
        assertEquals(Duration.ofSeconds(10), pause.next(Duration.ofSeconds(1), false));
        assertEquals(Duration.ofSeconds(5), pause.next(Duration.ofMinutes(6), false), "a run that went on long");
    }
}
