package io.sluice.cli.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProgressLineTest {

    private static final long SECOND = 1_000_000_000L;

    @Test
    void ratesLagTimeToCatchUpAndFiles() {
        ProgressSample from = new ProgressSample(0, 1_000_000, 400_000_000, 150_000, 10);
        ProgressSample to = new ProgressSample(5 * SECOND, 1_061_500, 425_000_000, 120_000, 14);
        // 61,500 records and 25 MB in 5 s; the lag shrank by 30,000 in 5 s, so 120,000 take 20 s more
        assertEquals("1,061,500 records · 12.3K rec/s · 5.00 MB/s · lag 120,000 · ETA 20 s · 14 files committed",
                ProgressLine.render(from, to));
    }

    @Test
    void theLagSaysWhetherItIsCaughtUpGrowingOrStandingStill() {
        ProgressSample from = new ProgressSample(0, 0, 0, 500, -1);
        assertEquals("900 records · 900 rec/s · 90.0 kB/s · lag 0 · caught up",
                ProgressLine.render(from, new ProgressSample(SECOND, 900, 90_000, 0, -1)));
        assertEquals("900 records · 900 rec/s · 90.0 kB/s · lag 700 · lag growing",
                ProgressLine.render(from, new ProgressSample(SECOND, 900, 90_000, 700, -1)));
        assertEquals("900 records · 900 rec/s · 90.0 kB/s · lag 500 · not catching up",
                ProgressLine.render(from, new ProgressSample(SECOND, 900, 90_000, 500, -1)));
        assertEquals("900 records · 900 rec/s · 90.0 kB/s · 1 file committed",
                ProgressLine.render(from, new ProgressSample(SECOND, 900, 90_000, -1, 1)));
    }

    @Test
    void aFirstReadingHasNoRatesYet() {
        ProgressSample only = new ProgressSample(7, 42, 4_200, 10, 0);
        assertEquals("42 records · lag 10 · ETA unknown · 0 files committed", ProgressLine.render(only, only));
    }

    @Test
    void onATerminalTheLineIsRedrawnInPlaceAndEndedOnClose() {
        Deque<ProgressSample> readings = new ArrayDeque<>(List.of(
                new ProgressSample(0, 0, 0, 3_000, -1),
                new ProgressSample(SECOND, 1_000, 1_000_000, 2_000, -1),
                new ProgressSample(2 * SECOND, 3_000, 3_000_000, 0, -1)));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ProgressReporter reporter = ProgressReporter.onTerminal(readings::removeFirst,
                new PrintStream(bytes, true, StandardCharsets.UTF_8));
        reporter.tick();
        reporter.tick();
        reporter.close();
        assertEquals("\r0 records · lag 3,000 · ETA unknown\u001b[K"
                + "\r1,000 records · 1.00K rec/s · 1.00 MB/s · lag 2,000 · ETA 2 s\u001b[K"
                + "\r3,000 records · 1.50K rec/s · 1.50 MB/s · lag 0 · caught up\u001b[K" + System.lineSeparator(),
                bytes.toString(StandardCharsets.UTF_8));
    }

    @Test
    void withoutATerminalEachReadingIsALogLineWithRatesOverTheLastFewSeconds() {
        Deque<ProgressSample> readings = new ArrayDeque<>();
        for (int s = 0; s <= 10; s++) {
            // 1,000 records a second until second 6, then 3,000 a second
            long records = s <= 6 ? s * 1_000L : 6_000 + (s - 6) * 3_000L;
            readings.add(new ProgressSample(s * SECOND, records, records * 100, -1, -1));
        }
        List<String> lines = new ArrayList<>();
        ProgressReporter reporter = ProgressReporter.toLog(readings::removeFirst, lines::add);
        for (int i = 0; i < 11; i++) {
            reporter.tick();
        }
        // at second 10 the window reaches back to second 5: (18,000 - 5,000) / 5 s
        assertEquals("18,000 records · 2.60K rec/s · 260 kB/s", lines.get(10));
        assertEquals(11, lines.size());
    }
}
