package io.sluice.merge.write;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** How far behind a late record is, in the words of a merge stopped by it (late: stop). */
class LateWordsTest {

    @Test
    void secondsMinutesHoursDays() {
        assertEquals("0.03 s", OutputPartition.behind(30));
        assertEquals("1.5 s", OutputPartition.behind(1_500));
        assertEquals("4 min 10 s", OutputPartition.behind(250_000));
        assertEquals("3 h 20 min", OutputPartition.behind(Duration.ofMinutes(200).toMillis()));
        assertEquals("69 d 4 h", OutputPartition.behind(Duration.ofDays(69).plusHours(4).plusMinutes(5).toMillis()));
    }
}
