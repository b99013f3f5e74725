package io.sluice.storage.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.core.commit.Silence.Turn;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** How long a store has not answered while requests wait, looked at each second on a clock of the test's. */
class StoreSilenceTest {

    private final AtomicLong now = new AtomicLong();
    private final StoreSilence silence = new StoreSilence("s3://bucket/", Duration.ofMinutes(5), now::get);

    @Test
    void aSilenceRunsFromTheFirstWaitingRequestAndIsSaidAtFifteenSeconds() {
        assertEquals(Turn.NONE, lookEachSecondUntil(100), "nothing waits: no silence, however long ago the answer");
        assertEquals(Optional.empty(), silence.silentFor());
        silence.beforeExecution(null, null);
        assertEquals(Turn.NONE, lookEachSecondUntil(114));
        assertEquals(Optional.empty(), silence.silentFor(), "14 s: not yet an outage");
        assertEquals(Turn.BEGAN, lookEachSecondUntil(115), "from the request at 100, not from the first look at 0");
        assertEquals(Optional.of(seconds(15)), silence.silentFor());
        silence.beforeExecution(null, null); // a second request joins the first
        lookEachSecondUntil(140);
        assertEquals(Optional.of(seconds(40)), silence.silentFor());
    }

    @Test
    void anAnswerEndsTheSilenceWhileRequestsStillWaitAndTheCountStartsAgain() {
        lookEachSecondUntil(1);
        silence.beforeExecution(null, null);
        silence.beforeExecution(null, null);
        assertEquals(Turn.BEGAN, lookEachSecondUntil(16));
        silence.afterTransmission(null, null); // the store answers one of them
        silence.afterExecution(null, null);
        assertEquals(Turn.ENDED, lookEachSecondUntil(17));
        assertEquals(Optional.empty(), silence.silentFor());
        assertEquals(Turn.NONE, lookEachSecondUntil(31), "the other still waits, 14 s since the answer");
        assertEquals(Turn.BEGAN, lookEachSecondUntil(32));
    }

    @Test
    void aRequestThatGaveUpWithoutAnAnswerEndsTheSilenceWithoutAnAnswerSaid() {
        lookEachSecondUntil(1);
        silence.beforeExecution(null, null);
        assertEquals(Turn.BEGAN, lookEachSecondUntil(16));
        silence.onExecutionFailure(null, null);
        assertEquals(Turn.NONE, lookEachSecondUntil(17), "not 'answers again': its failure says what happened");
        assertEquals(Optional.empty(), silence.silentFor());
    }

    @Test
    void timeThisProcessDidNotRunIsNotTheStoresSilence() {
        lookEachSecondUntil(1);
        silence.beforeExecution(null, null);
        lookEachSecondUntil(10);
        at(70); // SIGSTOP for a minute: no look ran
        assertEquals(Turn.NONE, silence.look(), "a stall is not the store's silence");
        assertEquals(Turn.NONE, lookEachSecondUntil(84));
        assertEquals(Turn.BEGAN, lookEachSecondUntil(85), "it counts again from the first look after the stall");
    }

    /** Looks once a second up to {@code second}, as the words' thread does; the last look's turn. */
    private Turn lookEachSecondUntil(long second) {
        Turn turn = Turn.NONE;
        for (long s = Duration.ofNanos(now.get()).toSeconds() + 1; s <= second; s++) {
            at(s);
            turn = silence.look();
        }
        return turn;
    }

    private void at(long second) {
        now.set(Duration.ofSeconds(second).toNanos());
    }

    private static Duration seconds(long s) {
        return Duration.ofSeconds(s);
    }
}
