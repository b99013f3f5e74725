package io.sluice.storage.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** How long a store has not answered while requests wait, on a clock of the test's. */
class StoreSilenceTest {

    private final AtomicLong now = new AtomicLong();
    private final StoreSilence silence = new StoreSilence("s3://bucket/", Duration.ofMinutes(5), now::get);

    @Test
    void aSilenceRunsFromTheLaterOfTheLastAnswerAndTheFirstWaitingRequest() {
        at(100);
        assertEquals(Optional.empty(), silence.silentFor(), "nothing waits: no silence, however long ago the answer");
        silence.beforeExecution(null, null);
        at(110);
        assertEquals(Optional.of(seconds(10)), silence.silentFor(), "from the request, not from the answer at 0");
        silence.beforeExecution(null, null); // a second request joins the first
        at(112);
        silence.afterTransmission(null, null); // the store answers one of them
        silence.afterExecution(null, null);
        at(140);
        assertEquals(Optional.of(seconds(28)), silence.silentFor(), "the other still waits, since the answer at 112");
        silence.onExecutionFailure(null, null); // it gave up without an answer
        assertEquals(Optional.empty(), silence.silentFor());
    }

    @Test
    void anAnswerEndsTheSilenceWhileRequestsStillWait() {
        silence.beforeExecution(null, null);
        at(30);
        assertEquals(Optional.of(seconds(30)), silence.silentFor());
        silence.look(); // said once: past the 15 s
        silence.afterTransmission(null, null);
        assertEquals(Optional.of(Duration.ZERO), silence.silentFor());
        silence.look(); // and its end
        at(31);
        assertEquals(Optional.of(seconds(1)), silence.silentFor());
    }

    private void at(long second) {
        now.set(Duration.ofSeconds(second).toNanos());
    }

    private static Duration seconds(long s) {
        return Duration.ofSeconds(s);
    }
}
