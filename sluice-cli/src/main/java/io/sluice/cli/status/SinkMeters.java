package io.sluice.cli.status;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.sluice.storage.sink.ArchiveCounters;
import io.sluice.storage.sink.ArchiveSink;
import java.util.concurrent.atomic.LongAdder;

/**
 * The archive sink's meters, next to the engine's: files sealed and published (visible to readers), rolls, and the
 * rolls forced early by the open-file bound or by the sink's memory limit. They read the sink's own counters when
 * scraped.
 *
 * <p>Threading: call {@link #bind} once per sink, from any thread.
 */
public final class SinkMeters {

    private SinkMeters() {
    }

    public static void bind(MeterRegistry registry, String group, ArchiveSink sink) {
        Tags tags = Tags.of("group", group);
        ArchiveCounters c = sink.counters;
        counter(registry, "sluice.sink.files.published", "files made visible to readers", tags, c.published);
        counter(registry, "sluice.sink.files.sealed", "files finished, to be published with their commit", tags,
                c.sealedFiles);
        counter(registry, "sluice.sink.rolls", "rolls: a partition's open files sealed at one offset", tags, c.rolls);
        counter(registry, "sluice.sink.rolls.forced", "rolls forced early", tags.and("reason", "open-files"),
                c.boundRolls);
        counter(registry, "sluice.sink.rolls.forced", "rolls forced early", tags.and("reason", "memory"),
                c.pressureRolls);
    }

    private static void counter(MeterRegistry registry, String name, String description, Tags tags, LongAdder count) {
        // the sink holds the adder for as long as it runs; Micrometer keeps only a weak reference
        FunctionCounter.builder(name, count, LongAdder::sum).description(description).tags(tags).register(registry);
    }
}
