package io.sluice.cli.merge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.merge.MergeConfig;
import io.sluice.merge.MergeInput;
import io.sluice.merge.MergeProgress;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The merge's lag as {@code sluice lag} and the progress line say it, when an input partition's end is unknown (its
 * cluster gave no answer for it in time, as for a partition without a leader): said as unknown, never as a lag of 0,
 * and left out of the totals.
 */
class MergeLagTest {

    private final MergeConfig config = MergeConfig.builder().name("m")
            .input(new MergeInput("west", Map.of("bootstrap.servers", "west:9092"), "clicks-west"))
            .input(new MergeInput("east", Map.of("bootstrap.servers", "east:9092"), "clicks-east"))
            .targetProperties(Map.of("bootstrap.servers", "target:9092")).outputTopic("clicks").build();

    private final List<MergeProgress.InputLag> rows = List.of(
            new MergeProgress.InputLag(0, "west", 40, 0, 50),
            new MergeProgress.InputLag(0, "east", 30, 0, 30),
            new MergeProgress.InputLag(1, "west", 20, 0, -1),
            new MergeProgress.InputLag(1, "east", 5, 0, 12));

    @Test
    void anUnknownEndIsSaidAsUnknownAndLeftOutOfTheTotals() {
        String report = MergeLag.render(config, rows);
        assertTrue(report.contains("Total lag 17 records (west 10 and 1 partition unknown, east 7)"), report);
        assertTrue(report.lines().anyMatch(l -> l.matches("\\s*1\\s+west\\s+clicks-west\\s+20\\s+\\?\\s+\\?")),
                report);
        assertTrue(report.contains("Note: '?': the input's cluster did not give the partition's end within 30 s"),
                report);
    }

    @Test
    void theLineSaysTheLagOfWhatIsKnown() {
        InputLags lags = InputLags.of(config, rows);
        assertEquals(17, lags.total());
        assertEquals(10, lags.of(0));
        assertEquals("west 10 and 1 partition unknown, east 7", lags.perInput());
        assertEquals(17, lags.lineTotal());
    }

    /** An input whose cluster gives no end has no lag on its gauge; the other keeps its own (both were blank). */
    @Test
    void anInputThatDoesNotAnswerHasNoGaugeValueAndTheOtherKeepsIts() {
        InputLags lags = InputLags.of(config, List.of(new MergeProgress.InputLag(0, "west", 40, 0, 50),
                new MergeProgress.InputLag(0, "east", 30, 0, -1), new MergeProgress.InputLag(1, "west", 20, 0, 22),
                new MergeProgress.InputLag(1, "east", 5, 0, -1)));
        assertEquals(12.0, lags.gauge(0));
        assertTrue(Double.isNaN(lags.gauge(1)));
        assertEquals("west 12, east 0 and 2 partitions unknown", lags.perInput());
        assertEquals(10.0, InputLags.of(config, rows).gauge(0), "west: one partition unknown, the other's lag known");
    }

    /** A position past the input's end (its topic created again) is said, not read as "lag 0". */
    @Test
    void aPositionPastTheInputsEndIsSaid() {
        String report = MergeLag.render(config, List.of(new MergeProgress.InputLag(0, "west", 50, 0, 50),
                new MergeProgress.InputLag(0, "east", 100, 0, 10)));
        assertTrue(report.lines().anyMatch(l -> l.matches("\\s*0\\s+east\\s+clicks-east\\s+100\\s+10\\s+past end!")),
                report);
        assertTrue(report.contains("Note: 'past end!': the merge committed a position beyond the input partition's "
                + "end: its topic was deleted and created again"), report);
    }

    /** Nothing known to lag, and a partition unknown: not "caught up" on the line. */
    @Test
    void noKnownLagBesideAnUnknownEndIsNotCaughtUp() {
        InputLags lags = InputLags.of(config, List.of(new MergeProgress.InputLag(0, "west", 50, 0, 50),
                new MergeProgress.InputLag(0, "east", 30, 0, 30), new MergeProgress.InputLag(1, "west", 20, 0, -1),
                new MergeProgress.InputLag(1, "east", 12, 0, 12)));
        assertEquals(0, lags.total());
        assertEquals(-1, lags.lineTotal());
        assertEquals("west 0 and 1 partition unknown, east 0", lags.perInput());
    }

    /** An input whose cluster does not answer: its rows unknown, said once why, the other input's rows as they are. */
    @Test
    void anInputThatDoesNotAnswerIsNamedOnceAndTheOtherKeepsItsRows() {
        String report = MergeLag.render(config, List.of(new MergeProgress.InputLag(0, "west", 40, 0, 50),
                new MergeProgress.InputLag(0, "east", 30, 0, -1), new MergeProgress.InputLag(1, "west", 20, 0, 22),
                new MergeProgress.InputLag(1, "east", 5, 0, -1)),
                Map.of("east", "input 'east' (east:9092): no broker answers: nothing listens there"));
        assertTrue(report.contains("Note: input 'east' (east:9092): no broker answers: nothing listens there: its "
                + "rows show '?', and the totals leave it out"), report);
        assertTrue(report.lines().anyMatch(l -> l.matches("\\s*1\\s+west\\s+clicks-west\\s+20\\s+22\\s+2")), report);
        assertTrue(report.contains("Total lag 12 records (west 12, east 0 and 2 partitions unknown)"), report);
        assertTrue(!report.contains("a partition without a leader"), "one reason, not two: " + report);
    }
}
