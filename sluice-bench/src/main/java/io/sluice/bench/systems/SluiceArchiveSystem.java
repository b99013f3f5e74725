package io.sluice.bench.systems;

import io.sluice.bench.ArchiveWork;
import io.sluice.bench.Scenario;
import io.sluice.core.Engine;
import io.sluice.core.EngineConfig;
import io.sluice.core.Health;
import io.sluice.storage.backend.LocalBackend;
import io.sluice.storage.sink.ArchiveSink;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Sluice's engine with the archive sink, exactly once: files are staged, listed in a manifest that the Kafka commit
 * names, and published after the commit. One worker per partition (a sink keeps each partition's records in order),
 * the default memory budget, the scenario's commit interval; JSON Lines compressed by the sink's pool (one thread per
 * core) or, for {@code sluice-inline}, on the lanes.
 */
final class SluiceArchiveSystem implements ArchiveSystem {

    private final int compressingThreads;

    /** @param compressingThreads the sink's compressing pool; 0 compresses on the lanes ({@code sluice-inline}) */
    SluiceArchiveSystem(int compressingThreads) {
        this.compressingThreads = compressingThreads;
    }

    @Override
    public long run(String bootstrap, String topic, Scenario scenario, Path output, Measurement m) throws Exception {
        ArchiveWork work = scenario.archive();
        String group = SystemMain.group("sluice-archive");
        CountingSink sink = new CountingSink(new ArchiveSink(new LocalBackend(output), work.layout(), work.format(),
                work.rolling(), true, ArchiveSink.DEFAULT_MAX_BUFFERED_BYTES, compressingThreads), m);
        EngineConfig config = EngineConfig.builder()
                .bootstrapServers(bootstrap)
                .groupId(group)
                .topics(topic)
                .concurrency(scenario.concurrency())
                .commitInterval(work.commitInterval())
                .memoryBudgetBytes(work.memoryBudgetBytes())
                .build();
        try (CommittedOffsets committed = new CommittedOffsets(bootstrap, topic, scenario.partitions());
                Engine engine = Engine.startSink(config, sink)) {
            m.awaitDone(ArchiveSystem.TIMEOUT, () -> failure(engine));
            return committed.awaitEnd(group, sink::publishedUpTo, ArchiveSystem.TIMEOUT, () -> failure(engine));
        }
    }

    private static Optional<String> failure(Engine engine) {
        return engine.health() == Health.FAILED || engine.health() == Health.STOPPED
                ? Optional.of(engine.health() + ": " + engine.failure().map(Throwable::toString).orElse("no cause"))
                : Optional.empty();
    }
}
