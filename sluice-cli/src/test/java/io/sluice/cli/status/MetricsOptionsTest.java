package io.sluice.cli.status;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cli.pipeline.MetricsConfig;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** The metrics flags, parsed by picocli, over the pipeline's endpoint. */
class MetricsOptionsTest {

    @Command(name = "run")
    static final class Run {
        @Mixin
        MetricsOptions metrics;
    }

    private static Run parse(String... args) {
        return CommandLine.populateCommand(new Run(), args);
    }

    @Test
    void metricsFlagsGoOverThePipelinesEndpoint() {
        MetricsConfig file = new MetricsConfig(9400, "127.0.0.1");
        assertEquals(file, parse().metrics.over(file));
        assertEquals(new MetricsConfig(0, "0.0.0.0"), parse("--metrics-port", "0", "--metrics-address", "0.0.0.0")
                .metrics.over(file));
        assertEquals(Optional.empty(), parse().metrics.over(new MetricsConfig(null, "127.0.0.1")).endpoint());
        var port = assertThrows(CommandLine.ParameterException.class, () -> parse("--metrics-port", "70000"));
        assertTrue(port.getMessage().contains("'70000' is out of range; expected 0 to 65535"), port.getMessage());
    }
}
