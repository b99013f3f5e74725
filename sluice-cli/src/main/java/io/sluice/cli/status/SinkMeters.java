package io.sluice.cli.status;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.sluice.storage.sink.ArchiveCounts;
import io.sluice.storage.sink.ArchiveSink;
import java.util.function.ToLongFunction;

/**
 * The archive sink's meters, next to the engine's: files sealed and published (visible to readers), rolls, and the
 * rolls forced early by the open-file bound or by the sink's memory limit. They read a snapshot of the sink's own
 * counters when scraped.
 *
 * <p>Threading: call {@link #bind} once per sink, from one thread at a time.
 */
public final class SinkMeters {

    private SinkMeters() {
    }

    public static void bind(MeterRegistry registry, String group, ArchiveSink sink) {
        Tags tags = Tags.of("group", group);
        counter(registry, "sluice.sink.files.published", "files made visible to readers", tags, sink,
                ArchiveCounts::published);
        counter(registry, "sluice.sink.files.sealed", "files finished, to be published with their commit", tags, sink,
                ArchiveCounts::sealedFiles);
        counter(registry, "sluice.sink.rolls", "rolls: a partition's open files sealed at one offset", tags, sink,
                ArchiveCounts::rolls);
        counter(registry, "sluice.sink.rolls.forced", "rolls forced early", tags.and("reason", "open-files"), sink,
                ArchiveCounts::boundRolls);
        counter(registry, "sluice.sink.rolls.forced", "rolls forced early", tags.and("reason", "memory"), sink,
                ArchiveCounts::pressureRolls);
        counter(registry, "sluice.sink.files.evicted", "files sealed alone at the open-file bound, committed with the "
                + "next roll", tags, sink, ArchiveCounts::evictions);
    }

    private static void counter(MeterRegistry registry, String name, String description, Tags tags, ArchiveSink sink,
            ToLongFunction<ArchiveCounts> count) {
        // a run started again binds its new sink: Micrometer keeps the first registration of a name and tags and
        // ignores the next, which would go on reading the stopped sink (the counters start again from 0, as the
        // engine's do; a rate over them reads the reset as such)
        registry.find(name).tags(tags).meters().forEach(registry::remove);
        // the pipeline holds the sink for as long as it runs; Micrometer keeps only a weak reference
        FunctionCounter.builder(name, sink, s -> count.applyAsLong(s.counters())).description(description).tags(tags)
                .register(registry);
    }
}
