package io.sluice.bench.systems;

import io.sluice.bench.Scenario;
import java.nio.file.Path;
import java.time.Duration;

/** A system that archives the scenario's topic into files under {@code output}. */
interface ArchiveSystem {

    /** Longer than any full run takes on a slow machine; a system that stalls fails the benchmark after it. */
    Duration TIMEOUT = Duration.ofMinutes(30);

    /**
     * Archives the whole topic, counting each record it takes in {@code m}, and returns when (a
     * {@link System#nanoTime()}) the output was complete: every record in a visible file and every partition's end
     * committed. Stops the system before returning.
     */
    long run(String bootstrap, String topic, Scenario scenario, Path output, Measurement m) throws Exception;
}
