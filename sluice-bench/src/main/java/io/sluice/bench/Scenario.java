package io.sluice.bench;

import java.util.List;
import java.util.Locale;

/**
 * A benchmark: the data, the work per record, and the systems compared. Sizes are the issue's; the smoke form runs
 * the same code on tiny sizes so the test suite can check that the harness and its JSON still work.
 *
 * @param handlerMillis per-record wait of the handler (0: CPU-light, it sums value lengths)
 * @param prefix        records a slow system processes before its rate is extrapolated (0: all)
 */
public record Scenario(String name, int records, int partitions, int keys, int valueBytes, int handlerMillis,
        int concurrency, List<String> systems, String baseline, int prefix) {

    public static Scenario named(String name, boolean smoke) {
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "engine-cpu" -> new Scenario("engine-cpu", smoke ? 5_000 : 2_000_000, 4, 10_000, 1_000, 0, 16,
                    List.of("plain-consumer", "sluice", "parallel-consumer"), "plain-consumer", 0);
            case "engine-io" -> new Scenario("engine-io", smoke ? 2_000 : 200_000, 4, 10_000, 1_000, 5, 256,
                    List.of("per-partition", "sluice", "parallel-consumer"), "per-partition", smoke ? 200 : 4_000);
            default -> throw new IllegalArgumentException("unknown scenario '" + name + "'; known: engine-cpu, engine-io");
        };
    }
}
