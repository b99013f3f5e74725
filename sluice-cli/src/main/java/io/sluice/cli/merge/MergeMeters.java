package io.sluice.cli.merge;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.merge.MergeConfig;
import io.sluice.merge.write.MergeCounts;

/**
 * A running merge's meters, per input: records merged, late records among them, how often a partition of it was
 * paused for alignment, dead letters (in total), and the lag (NaN while unknown). Tagged with the merge's name.
 *
 * <p>Stateless.
 */
final class MergeMeters {

    private MergeMeters() {
    }

    static void register(MeterRegistry registry, MergeConfig config, MergeCounts counts, LagSampler lag) {
        for (int i = 0; i < config.inputs().size(); i++) {
            int input = i;
            String name = config.inputs().get(i).name();
            FunctionCounter.builder("sluice.merge.records", counts, c -> c.merged(input, false))
                    .description("records merged from the input (late ones included) and committed")
                    .tags("merge", config.name(), "input", name).register(registry);
            FunctionCounter.builder("sluice.merge.late", counts, c -> c.merged(input, true))
                    .description("late records of the input, placed as the late policy says")
                    .tags("merge", config.name(), "input", name, "policy", config.late().name().toLowerCase(
                            java.util.Locale.ROOT)).register(registry);
            FunctionCounter.builder("sluice.merge.pauses", counts, c -> c.pauses(input))
                    .description("times a partition of the input was paused, holding its share of the budget while "
                            + "the merge waited for the other inputs (alignment)")
                    .tags("merge", config.name(), "input", name).register(registry);
            Gauge.builder("sluice.merge.lag", lag, l -> l.last() == null ? Double.NaN : l.last().gauge(input))
                    .description("records of the input not merged and committed yet, over every output partition")
                    .tags("merge", config.name(), "input", name).register(registry);
        }
        FunctionCounter.builder("sluice.merge.dead.letters", counts, MergeCounts::deadLettered)
                .description("records without a usable event time, sent to the dead-letter topic")
                .tags("merge", config.name()).register(registry);
    }
}
