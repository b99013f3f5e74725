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
}
