package io.sluice.core.crash;

import io.sluice.core.Engine;
import io.sluice.core.EngineConfig;
import io.sluice.core.Ordering;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The engine in a child JVM, for crash tests: {@code CrashChild <bootstrap> <topic> <group> <processed-log>}. Each
 * processed record is appended to the log as {@code "<partition> <offset>"} before the handler returns, so the log
 * survives a halt. SIGTERM closes the engine (drain, commit) through a shutdown hook, as the CLI does.
 */
public final class CrashChild {

    private CrashChild() {
    }

    public static void main(String[] args) throws IOException {
        EngineConfig config = EngineConfig.builder()
                .bootstrapServers(args[0])
                .topics(args[1])
                .groupId(args[2])
                // static membership: a restarted child takes its place at once, without waiting for a session timeout
                .consumerProperty("group.instance.id", "crash-child")
                .consumerProperty("session.timeout.ms", 3_000)
                .consumerProperty("heartbeat.interval.ms", 500)
                .ordering(Ordering.KEY)
                .concurrency(4)
                .commitInterval(Duration.ofMillis(100))
                .drainTimeout(Duration.ofSeconds(10))
                .build();
        FileOutputStream log = new FileOutputStream(args[3], true);
        Engine engine = Engine.start(config, new ByteArrayDeserializer(), new ByteArrayDeserializer(), record -> {
            byte[] line = (record.partition() + " " + record.offset() + "\n").getBytes(StandardCharsets.UTF_8);
            synchronized (log) {
                log.write(line);
            }
            Thread.sleep(1);
        });
        Runtime.getRuntime().addShutdownHook(new Thread(engine::close, "close-engine"));
        System.out.println("SLUICE-READY");
        System.out.flush();
        engine.awaitTermination(Duration.ofDays(1));
    }
}
