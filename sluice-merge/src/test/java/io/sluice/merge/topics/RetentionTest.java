package io.sluice.merge.topics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What the topics a merge creates keep, from what its inputs keep. */
class RetentionTest {

    private static final long WEEK = Duration.ofDays(7).toMillis();

    @Test
    void theLongestTimeAndTheBytesOfAllInputsTogether() {
        Retention r = Retention.NONE.and("west", WEEK, 1_000).and("east", 2 * WEEK, 500);
        assertEquals(Map.of("retention.ms", Long.toString(2 * WEEK), "retention.bytes", "1500"), r.topicConfig());
    }

    @Test
    void anInputKeptForEverKeepsTheOutputForEver() {
        Retention r = Retention.NONE.and("west", WEEK, -1).and("east", -1, 500).and("north", 3 * WEEK, 10);
        assertEquals(Map.of("retention.ms", "-1", "retention.bytes", "-1"), r.topicConfig());
    }

    @Test
    void anExistingOutputKeptShorterThanAnInputIsWarnedOf() {
        Retention r = Retention.NONE.and("west", WEEK, -1).and("east", -1, -1);
        Optional<String> warning = r.shorterIn("merged", WEEK);
        assertTrue(warning.orElseThrow().startsWith("the output topic 'merged' keeps records for 7 days "
                + "(retention.ms=604800000), and input 'east' keeps them for ever"), warning.get());
        assertEquals(Optional.empty(), r.shorterIn("merged", -1));
        assertEquals(Optional.empty(), Retention.NONE.and("west", WEEK, -1).shorterIn("merged", WEEK));
    }
}
