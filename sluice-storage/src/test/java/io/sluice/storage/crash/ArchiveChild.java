package io.sluice.storage.crash;

import io.sluice.core.Engine;
import io.sluice.core.EngineConfig;
import io.sluice.storage.backend.LocalBackend;
import io.sluice.storage.codec.Codec;
import io.sluice.storage.format.JsonLinesFormat;
import io.sluice.storage.layout.Layout;
import io.sluice.storage.rolling.RollingPolicy;
import io.sluice.storage.sink.ArchiveSink;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;

/**
 * The archive in a child JVM, for crash tests: {@code ArchiveChild <bootstrap> <topic> <group> <root> <size|age>}.
 * {@code size} rolls every 100 records (and, so the tail shows without closing, files 3 s old); {@code age} rolls
 * files a second old. SIGTERM closes cleanly.
 */
public final class ArchiveChild {

    private ArchiveChild() {
    }

    public static void main(String[] args) {
        RollingPolicy rolling = args[4].equals("size")
                ? new RollingPolicy(1L << 30, 100, Duration.ofSeconds(3), 16)
                : new RollingPolicy(1L << 30, 1_000_000, Duration.ofSeconds(1), 16);
        ArchiveSink sink = new ArchiveSink(new LocalBackend(Path.of(args[3])),
                new Layout("{topic}/hr={ts:HH}/category={value.category}/", null, ZoneOffset.UTC, null),
                new JsonLinesFormat(Codec.ZSTD, false, false), rolling, true);
        EngineConfig config = EngineConfig.builder()
                .bootstrapServers(args[0])
                .topics(args[1])
                .groupId(args[2])
                .consumerProperty("group.instance.id", "archive-child")
                .consumerProperty("session.timeout.ms", 3_000)
                .consumerProperty("heartbeat.interval.ms", 500)
                .consumerProperty("max.poll.records", 50)
                .commitInterval(Duration.ofMillis(200))
                .drainTimeout(Duration.ofSeconds(10))
                .build();
        Engine engine = Engine.startSink(config, sink);
        Runtime.getRuntime().addShutdownHook(new Thread(engine::close, "close-engine"));
        System.out.println("SLUICE-READY");
        System.out.flush();
        engine.awaitTermination(Duration.ofDays(1));
    }
}
