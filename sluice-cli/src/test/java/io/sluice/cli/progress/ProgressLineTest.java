package io.sluice.cli.progress;

import static org.junit.jupiter.api.Assertions.assertEquals;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.sluice.cli.console.Console;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** The progress line, and how the reporter shows it on a terminal and in the log. */
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
        ProgressSample from = new ProgressSample(0, 0, 0, 5_000, -1);
        assertEquals("900 records · 900 rec/s · 90.0 kB/s · lag 0 · caught up",
                ProgressLine.render(from, new ProgressSample(SECOND, 900, 90_000, 0, -1)));
        assertEquals("900 records · 900 rec/s · 90.0 kB/s · lag 7,000 · lag growing",
                ProgressLine.render(from, new ProgressSample(SECOND, 900, 90_000, 7_000, -1)));
        assertEquals("900 records · 900 rec/s · 90.0 kB/s · lag 5,000 · not catching up",
                ProgressLine.render(from, new ProgressSample(SECOND, 900, 90_000, 5_000, -1)));
        // the bytes done are an estimate that can step back while nothing is done: never a negative rate
        assertEquals("900 records · 0.00 rec/s · 0 B/s · lag 7,000 · lag growing",
                ProgressLine.render(new ProgressSample(0, 900, 90_004, 5_000, -1),
                        new ProgressSample(SECOND, 900, 90_000, 7_000, -1)));
        // a lag within a second of the rate, growing or not: a source written all the time, kept up with
        ProgressSample steady = new ProgressSample(0, 0, 0, 3, -1);
        assertEquals("150 records · 150 rec/s · 15.0 kB/s · lag 5 · keeping up",
                ProgressLine.render(steady, new ProgressSample(SECOND, 150, 15_000, 5, -1)));
        assertEquals("0 records · 0.00 rec/s · 0 B/s · lag 5 · lag growing",
                ProgressLine.render(steady, new ProgressSample(SECOND, 0, 0, 5, -1)), "nothing read: not kept up");
        assertEquals("900 records · 900 rec/s · 90.0 kB/s · 1 file committed",
                ProgressLine.render(from, new ProgressSample(SECOND, 900, 90_000, -1, 1)));
    }

    @Test
    void anUnreachableSourceShowsNoLagSinceItIsAsOfBeforeTheOutage() {
        ProgressSample from = new ProgressSample(0, 900, 90_000, 0, 0, 3, null);
        // the consumer's lag is 0 as of the last time the broker answered: "caught up" would be a guess
        assertEquals("900 records · 0.00 rec/s · 0 B/s · no answer from the source cluster for 25 s (retrying; lag "
                + "unknown) · 3 files committed", ProgressLine.render(from,
                        new ProgressSample(SECOND, 900, 90_000, 0, 0, 3, null, Duration.ofSeconds(25))));
        assertEquals("900 records · stopping: committing · no answer from the source cluster for 1 min 5 s · 300 not yet"
                + " durable · 3 files committed", ProgressLine.renderStopping(
                        new ProgressSample(SECOND, 900, 90_000, 0, 300, 3, null, Duration.ofSeconds(65)), "committing"));
    }

    @Test
    void anUnansweringTargetIsSaidBesideTheLag() {
        ProgressSample from = new ProgressSample(0, 900, 90_000, 99, 99, -1, null);
        // the lag is the source's and stays true: the line says why it does not shrink
        assertEquals("900 records · 0.00 rec/s · 0 B/s · lag 99 · not catching up · no answer from the target cluster "
                + "for 21 s (retrying)", ProgressLine.render(from,
                        new ProgressSample(SECOND, 900, 90_000, 99, 99, -1, null, null, Duration.ofSeconds(21))));
        assertEquals("900 records · stopping: committing · no answer from the target cluster for 1 min 5 s · 99 not yet"
                + " durable", ProgressLine.renderStopping(new ProgressSample(SECOND, 900, 90_000, 99, 99, -1, null,
                        null, Duration.ofSeconds(65)), "committing"));
    }

    /**
     * A roll writing hundreds of held folders as files completes no record for seconds: the line says so where it said
     * "not catching up" (5-7 s of the quick start's 26). While records complete, the catch-up words stay.
     */
    @Test
    void aRollThatCompletesNothingForAWhileIsSaidInPlaceOfNotCatchingUp() {
        ProgressSample from = new ProgressSample(0, 900, 90_000, 5_000, 5_000, 3, null);
        ProgressSample rolling = new ProgressSample(SECOND, 900, 90_000, 5_000, 5_000, 3, null)
                .withBusy(Optional.of("rolling: sealing 312 files"));
        assertEquals("900 records · 0.00 rec/s · 0 B/s · lag 5,000 · rolling: sealing 312 files · 3 files committed",
                ProgressLine.render(from, rolling));
        ProgressSample moving = new ProgressSample(SECOND, 1_900, 190_000, 4_000, 4_000, 3, null)
                .withBusy(Optional.of("rolling: sealing 4 files"));
        assertEquals("1,900 records · 1.00K rec/s · 100 kB/s · lag 4,000 · ETA 4 s · 3 files committed",
                ProgressLine.render(from, moving));
    }

    /** An archive's store that does not answer (S3 retrying for minutes) is said on the line, as a target is. */
    @Test
    void anUnansweringStoreIsSaidBesideTheLag() {
        ProgressSample from = new ProgressSample(0, 900, 90_000, 99, 99, 3, null);
        assertEquals("900 records · 0.00 rec/s · 0 B/s · lag 99 · not catching up · no answer from the store for 21 s "
                + "(retrying) · 3 files committed", ProgressLine.render(from,
                        new ProgressSample(SECOND, 900, 90_000, 99, 99, 3, null, null, Duration.ofSeconds(21))));
    }

    /**
     * Partitions stopped at a gap are left out of the lag (the engine's line names them): with their lag in, a mirror
     * whose source topic was created again read "lag 0 · caught up" beside four stopped partitions.
     */
    @Test
    void withPartitionsStoppedAtAGapTheOthersAreCaughtUp() {
        ProgressSample from = new ProgressSample(0, 0, 0, 500, 500, -1, null, null, null, 1);
        assertEquals("900 records · 900 rec/s · 90.0 kB/s · lag 0 · the others caught up",
                ProgressLine.render(from, new ProgressSample(SECOND, 900, 90_000, 0, 0, -1, null, null, null, 1)));
    }

    /**
     * Caught up on the partitions held here while a killed member of the group holds the others until its session
     * times out (a new user's run of two mirror instances): the line says how many of the topics' partitions are held.
     */
    @Test
    void theLineSaysHowManyOfTheTopicsPartitionsItHoldsWhenNotAll() {
        ProgressSample from = new ProgressSample(0, 0, 0, 500, 500, -1, null, null, null, 0, 2, 4);
        assertEquals("900 records · 900 rec/s · 90.0 kB/s · lag 0 · caught up · 2 of 4 partitions held here",
                ProgressLine.render(from, new ProgressSample(SECOND, 900, 90_000, 0, 0, -1, null, null, null, 0, 2,
                        4)));
        assertEquals("900 records · 900 rec/s · 90.0 kB/s · lag 0 · caught up", ProgressLine.render(from,
                new ProgressSample(SECOND, 900, 90_000, 0, 0, -1, null, null, null, 0, 4, 4)), "all held: nothing said");
        assertEquals("900 records · 900 rec/s · 90.0 kB/s · lag 0 · caught up", ProgressLine.render(from,
                new ProgressSample(SECOND, 900, 90_000, 0, 0, -1, null, null, null, 0, 2, -1)), "unknown: nothing said");
        assertEquals("0 records · 0.00 rec/s · 0 B/s · 0 of 4 partitions held here", ProgressLine.render(from,
                new ProgressSample(SECOND, 0, 0, -1, -1, -1, null, null, null, 0, 0, 4)), "waiting for partitions");
    }

    @Test
    void caughtUpOnlyWhenEveryRecordIsDurable() {
        ProgressSample from = new ProgressSample(0, 0, 0, 500, 800, 3, null);
        // records held in open files: the consumed lag alone would say "caught up"
        assertEquals("900 records · 900 rec/s · 90.0 kB/s · lag 0 · consumed all, 300 not yet durable, next commit "
                + "in ~4 min 30 s · 3 files committed", ProgressLine.render(from,
                        new ProgressSample(SECOND, 900, 90_000, 0, 300, 3, Duration.ofSeconds(270))));
        assertEquals("900 records · 900 rec/s · 90.0 kB/s · lag 0 · consumed all, 300 not yet durable · 3 files "
                + "committed", ProgressLine.render(from, new ProgressSample(SECOND, 900, 90_000, 0, 300, 3, null)));
        assertEquals("900 records · 900 rec/s · 90.0 kB/s · lag 0 · caught up · 5 files committed",
                ProgressLine.render(from, new ProgressSample(SECOND, 900, 90_000, 0, 0, 5, null)));
        // still reading: both lags, and the time to consume the rest
        ProgressSample behind = new ProgressSample(0, 0, 0, 5_000, 8_000, 3, null);
        assertEquals("900 records · 900 rec/s · 90.0 kB/s · lag 4,000 · 7,000 not yet durable · ETA 4 s · 3 files "
                + "committed", ProgressLine.render(behind, new ProgressSample(SECOND, 900, 90_000, 4_000, 7_000, 3,
                        null)));
    }

    @Test
    void aRunThatDoesNotCountBytesShowsNoByteRate() {
        assertEquals("900 records · 900 rec/s · lag 0 · caught up", ProgressLine.render(
                new ProgressSample(0, 0, -1, 500, -1), new ProgressSample(SECOND, 900, -1, 0, -1)));
    }

    @Test
    void aFirstReadingHasNoRatesYet() {
        ProgressSample only = new ProgressSample(7, 42, 4_200, 10, 0);
        assertEquals("42 records · lag 10 · ETA unknown · 0 files committed", ProgressLine.render(only, only));
    }

    @Test
    void onATerminalTheStatusLineIsRedrawnEverySecondWithRatesOverTheLastFiveSeconds() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Console console = new Console(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), true);
        ProgressReporter reporter = new ProgressReporter(console, "archiving", Duration.ofSeconds(30));
        reporter.update(new ProgressSample(0, 0, 0, 3_000, 0));
        // read every 200 ms: a line only once a second has passed since the last one
        reporter.update(new ProgressSample(SECOND / 5, 200, 200_000, 2_800, 0));
        reporter.update(new ProgressSample(SECOND, 1_000, 1_000_000, 2_000, 1));
        reporter.update(new ProgressSample(SECOND + SECOND / 5, 1_200, 1_200_000, 1_800, 1));
        reporter.update(new ProgressSample(2 * SECOND, 3_000, 3_000_000, 0, 2));
        reporter.finish();
        String clear = "\r\u001b[K";
        assertEquals(clear + "archiving: 1,000 records · 1.00K rec/s · 1.00 MB/s · lag 2,000 · ETA 2 s · 1 file "
                + "committed" + clear + "archiving: 3,000 records · 1.50K rec/s · 1.50 MB/s · lag 0 · caught up · 2 "
                + "files committed" + clear, err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void whileTheRunStopsTheLineSaysWhatTheStopDoesNotAStall() {
        // the last commit of an archive: nothing more is read, and the lags are as of before the stop
        ProgressSample stopping = new ProgressSample(SECOND, 200_000, 51_000_000, 34_708, 200_000, 0, null);
        assertEquals("200,000 records · stopping: committing the files · 200,000 not yet durable · 0 files "
                + "committed", ProgressLine.renderStopping(stopping, "committing the files"));
        assertEquals("900 records · stopping: committing the copies", ProgressLine.renderStopping(
                new ProgressSample(SECOND, 900, 90_000, 0, 0, -1, null), "committing the copies"));
    }

    @Test
    void aStoppingRunShowsItsLineAtTheSameCadence() {
        List<ILoggingEvent> log = loggedWithoutATerminal(reporter -> {
            for (int s = 0; s <= 4; s++) {
                reporter.update(new ProgressSample(s * SECOND, s * 1_000L, s * 100_000L, 10, 10, 0, null));
            }
            for (int s = 5; s <= 12; s++) {
                reporter.stopping(new ProgressSample(s * SECOND, 4_000, 400_000, 10, 4_000, 0, null),
                        "committing");
            }
        });
        String line = "archiving: 4,000 records · stopping: committing · 4,000 not yet durable · 0 files committed";
        assertEquals(List.of(line, line), log.stream().map(ILoggingEvent::getFormattedMessage).toList());
    }

    @Test
    void withoutATerminalALogLineIsDueEveryIntervalWithItsFiguresAsKeyValues() {
        List<ILoggingEvent> log = loggedWithoutATerminal(reporter -> {
            for (int s = 0; s <= 10; s++) {
                // 1,000 records a second until second 6, then 3,000 a second
                long records = s <= 6 ? s * 1_000L : 6_000 + (s - 6) * 3_000L;
                reporter.update(new ProgressSample(s * SECOND, records, records * 100, -1, -1));
            }
        });
        assertEquals(List.of("archiving: 5,000 records · 1.00K rec/s · 100 kB/s",
                "archiving: 18,000 records · 2.60K rec/s · 260 kB/s"),
                log.stream().map(ILoggingEvent::getFormattedMessage).toList());
        // over the five seconds since the line before: (18,000 - 5,000) / 5 s
        assertEquals(List.of("records=18000", "records_per_second=2600", "bytes_per_second=260000", "lag=-1",
                "durable_lag=-1", "files_committed=-1", "partitions_held=-1", "partitions=-1",
                "source_unanswered_seconds=0"),
                log.get(1).getKeyValuePairs().stream().map(kv -> kv.key + "=" + kv.value).toList());
    }

    /** What a reporter labelled "archiving", without a terminal and a line due every 5 s, logs while fed. */
    private static List<ILoggingEvent> loggedWithoutATerminal(Consumer<ProgressReporter> feed) {
        ProgressReporter reporter = new ProgressReporter(new Console(System.out, System.err, false), "archiving",
                Duration.ofSeconds(5));
        ListAppender<ILoggingEvent> log = new ListAppender<>();
        Logger logger = (Logger) LoggerFactory.getLogger("sluice.progress");
        log.start();
        logger.addAppender(log);
        try {
            feed.accept(reporter);
        } finally {
            logger.detachAppender(log);
        }
        return log.list;
    }
}
