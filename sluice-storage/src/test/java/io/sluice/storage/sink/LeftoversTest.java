package io.sluice.storage.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** How long a refused removal of leftovers waits before the next try: none, then a minute, doubling up to an hour. */
class LeftoversTest {

    @Test
    void thePauseAfterEachFailureInARow() {
        List<Long> minutes = IntStream.rangeClosed(1, 10)
                .mapToObj(n -> TimeUnit.NANOSECONDS.toMinutes(Leftovers.pauseAfter(n))).toList();
        assertEquals(List.of(0L, 1L, 2L, 4L, 8L, 16L, 32L, 60L, 60L, 60L), minutes);
        assertEquals(TimeUnit.HOURS.toNanos(1), Leftovers.pauseAfter(Integer.MAX_VALUE), "no overflow");
    }
}
