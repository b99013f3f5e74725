package io.sluice.cli.console;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The units figures are shown in. */
class UnitsTest {

    @Test
    void unitsReadAndWriteAsPeopleDo() {
        assertEquals("1 h 17 min", Units.duration(Duration.ofMinutes(77)));
        assertEquals("2 d 3 h", Units.duration(Duration.ofHours(51)));
        assertEquals("4.10 GB", Units.bytes(4_100_000_000L));
        assertEquals("999 B", Units.bytes(999));
        assertEquals("1.00 kB", Units.bytes(999.7));
        assertEquals("12.3K", Units.compact(12_345));
    }

    @Test
    void aSizeGivenInBinaryUnitsIsEchoedInThem() {
        assertEquals("200 KiB", Units.bytesAsGiven(200 * 1024)); // was "205 kB" for --throttle 200KiB/s
        assertEquals("1.50 MiB", Units.bytesAsGiven(1536 * 1024));
        assertEquals("16.0 KiB", Units.bytesAsGiven(16 * 1024));
        assertEquals("50.0 MB", Units.bytesAsGiven(50_000_000));
        assertEquals("1.02 MB", Units.bytesAsGiven(1_024_000)); // a whole number of kB too: decimal, as given
        assertEquals("999 B", Units.bytesAsGiven(999));
    }
}
