package io.sluice.cli;

import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.cli.status.SinkMeters;
import io.sluice.core.Engine;
import io.sluice.core.EngineConfig;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.storage.backend.LocalBackend;
import io.sluice.storage.codec.Codec;
import io.sluice.storage.format.JsonLinesFormat;
import io.sluice.storage.layout.Layout;
import io.sluice.storage.rolling.RollingPolicy;
import io.sluice.storage.sink.ArchiveSink;
import io.sluice.testkit.TestDirs;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;

/**
 * A running archive for the tests of what a run shows (metrics, status page, progress): the engine archiving a topic
 * of the shared broker as plain JSON Lines under {@code {topic}/} in a fresh folder, exactly once, its meters and the
 * sink's in {@code registry}. The test closes the engine, then the sink, when it has looked.
 */
public record MeteredArchive(Engine engine, ArchiveSink sink, EngineConfig config, Path dir) {

    /** @param commitInterval how often to commit, or null for the engine's default */
    public static MeteredArchive start(KafkaCluster kafka, String topic, MeterRegistry registry, RollingPolicy rolling,
            Duration commitInterval) {
        EngineConfig.Builder builder = EngineTestSupport.config(kafka, topic).meterRegistry(registry);
        if (commitInterval != null) {
            builder.commitInterval(commitInterval);
        }
        EngineConfig config = builder.build();
        Path dir = TestDirs.newDir(topic);
        ArchiveSink sink = new ArchiveSink(new LocalBackend(dir), new Layout("{topic}/", null, ZoneOffset.UTC, null),
                new JsonLinesFormat(Codec.NONE, false, false), rolling, true);
        SinkMeters.bind(registry, config.groupId(), sink);
        return new MeteredArchive(Engine.startSink(config, sink), sink, config, dir);
    }
}
