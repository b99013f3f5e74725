package io.sluice.cli.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.core.EngineConfig;
import io.sluice.core.TimestampStart;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** The bounded-run flags, parsed by picocli and applied. */
class BoundedRunOptionsTest {

    @Command(name = "run")
    static final class Run {
        @Mixin
        BoundedRunOptions bounds;
    }

    private static Run parse(String... args) {
        return CommandLine.populateCommand(new Run(), args);
    }

    private static EngineConfig config(Run run) {
        return run.bounds.applyTo(EngineConfig.builder().bootstrapServers("b:9092").groupId("g").topics("t")).build();
    }

    @Test
    void boundedRunFlagsReachTheEngineConfig() {
        EngineConfig config = config(parse("--from", "2026-01-20T00:00Z", "--from-scope", "ALWAYS", "--until-end",
                "--max-read-rate", "50MB/s"));
        assertEquals(Instant.parse("2026-01-20T00:00:00Z"), config.startTimestamp());
        assertEquals(TimestampStart.ALWAYS, config.timestampStart());
        assertTrue(config.untilEnd());
        assertEquals(50_000_000, config.maxReadBytesPerSecond());

        EngineConfig plain = config(parse());
        assertNull(plain.startTimestamp());
        assertFalse(plain.untilEnd());
        assertEquals(0, plain.maxReadBytesPerSecond());

        assertEquals(Instant.parse("2026-01-19T23:00:00Z"), config(parse("--from", "2026-01-20T00:00+01:00"))
                .startTimestamp());
        assertEquals(Instant.parse("2026-01-20T00:00:00Z"), config(parse("--from", "2026-01-20")).startTimestamp());
    }

    @Test
    void badValuesSayWhatIsAccepted() {
        var time = assertThrows(CommandLine.ParameterException.class, () -> parse("--from", "yesterday"));
        assertTrue(time.getMessage().contains("'yesterday' is not a time: write 2026-11-20T00:00Z, "
                + "2026-11-20T01:00+01:00 or 2026-11-20 (midnight UTC)"), time.getMessage());
        var rate = assertThrows(CommandLine.ParameterException.class, () -> parse("--max-read-rate", "fast"));
        assertTrue(rate.getMessage().contains("'fast' is not a rate; write it like 50MB/s or 512KiB/s, at least "
                + "1KiB/s"), rate.getMessage());
        var slow = assertThrows(CommandLine.ParameterException.class, () -> parse("--max-read-rate", "100B/s"));
        assertTrue(slow.getMessage().contains("'100B/s' is below the least rate, 1KiB/s"), slow.getMessage());
        assertEquals(512 * 1024, config(parse("--max-read-rate", "512KiB/s")).maxReadBytesPerSecond());
        var scopeAlone = assertThrows(CommandLine.ParameterException.class,
                () -> config(parse("--from-scope", "ALWAYS")));
        assertEquals("--from-scope ALWAYS needs --from TIME: it says which partitions --from moves, and without it no "
                + "partition moves", scopeAlone.getMessage());
        assertEquals(TimestampStart.UNCOMMITTED, config(parse("--from", "2026-01-20")).timestampStart());
        // a usage mistake in words (exit 2), not the engine's exception with an API name for advice
        var future = assertThrows(CommandLine.ParameterException.class, () -> config(parse("--from", "2999-01-01")));
        assertTrue(future.getMessage().startsWith("--from 2999-01-01T00:00:00Z is in the future (it is "), future
                .getMessage());
        assertTrue(future.getMessage().endsWith("): no record is that recent. Give a time in the past, or leave --from "
                + "out: partitions the group has not committed then start where source.start says (earliest or "
                + "latest)"), future.getMessage());
    }
}
