package io.sluice.cli.ops;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.sluice.storage.sink.ArchiveSink;
import java.util.concurrent.atomic.LongAdder;

/**
 * The archive sink's meters, next to the engine's: files published (visible to readers) and rolls forced by the
 * open-file bound. They read the sink's own counters when scraped.
 *
 * <p>Threading: call {@link #bind} once per sink, from any thread.
 */
public final class SinkMeters {

    private SinkMeters() {
    }

    public static void bind(MeterRegistry registry, String group, ArchiveSink sink) {
        Tags tags = Tags.of("group", group);
        counter(registry, "sluice.sink.files.published", "files made visible to readers", tags, sink.published);
        counter(registry, "sluice.sink.rolls.forced", "files rolled early because too many were open", tags,
                sink.boundRolls);
    }

    private static void counter(MeterRegistry registry, String name, String description, Tags tags, LongAdder count) {
        // the sink holds the adder for as long as it runs; Micrometer keeps only a weak reference
        FunctionCounter.builder(name, count, LongAdder::sum).description(description).tags(tags).register(registry);
    }
}
