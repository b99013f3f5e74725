package io.sluice.cli.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** How far a long audit has read, said now and then; a short one says nothing. */
class AuditTickerTest {

    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private Console console(boolean terminal) {
        return new Console(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), terminal);
    }

    private String said() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void offATerminalEachIntervalIsALineOfItsOwn() {
        AuditTicker ticker = new AuditTicker(console(false), "checking clicks: ", Duration.ZERO);
        ticker.filesRead(3, 1_200);
        ticker.filesRead(1_568, 200_000);
        ticker.finish();
        assertEquals("checking clicks: 3 files and 1,200 records read" + System.lineSeparator()
                + "checking clicks: 1,568 files and 200,000 records read" + System.lineSeparator(), said());
    }

    @Test
    void anAuditShorterThanTheIntervalSaysNothing() {
        AuditTicker ticker = new AuditTicker(console(false), "checking clicks: ", Duration.ofHours(1));
        ticker.filesRead(3, 1_200);
        ticker.finish();
        assertEquals("", said());
    }

    @Test
    void onATerminalItIsTheStatusLineWhichGoesWhenTheAuditEnds() {
        AuditTicker ticker = new AuditTicker(console(true), "checking clicks: ", Duration.ZERO);
        ticker.filesRead(3, 1_200);
        assertEquals("\r\033[Kchecking clicks: 3 files and 1,200 records read", said());
        ticker.finish();
        assertTrue(said().endsWith("records read\r\033[K"), "cleared: " + said());
    }
}
