package io.sluice.cli.quickstart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The quick start's size line says smaller or larger, never "0.5x smaller". */
class QuickstartSummaryTest {

    @Test
    void filesSmallerThanTheEventsAreCalledSmaller() {
        assertEquals("3.2x smaller", QuickstartCommand.compression(320_000_000, 100_000_000));
        assertEquals("1.0x smaller", QuickstartCommand.compression(100, 100));
    }

    @Test
    void filesLargerThanTheEventsAreCalledLargerWithTheReason() {
        String text = QuickstartCommand.compression(5_090_000, 9_680_000);
        assertTrue(text.startsWith("1.9x larger: "), text);
        assertTrue(text.contains("--events 1000000"), text);
    }

    @Test
    void anEmptyArchiveSaysSo() {
        assertEquals("nothing written", QuickstartCommand.compression(5_090_000, 0));
    }
}
