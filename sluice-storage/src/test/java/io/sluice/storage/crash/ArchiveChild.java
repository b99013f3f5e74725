package io.sluice.storage.crash;

import io.sluice.core.Engine;
import io.sluice.core.EngineConfig;
import io.sluice.storage.backend.TestStorage;
import io.sluice.storage.codec.Codec;
import io.sluice.storage.format.JsonLinesFormat;
import io.sluice.storage.layout.Layout;
import io.sluice.storage.rolling.RollingPolicy;
import io.sluice.storage.sink.ArchiveSink;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;

/**
 * The archive in a child JVM, for crash and zombie tests:
 * {@code ArchiveChild <bootstrap> <topic> <group> <storage spec> <size|age> <group instance id>}. {@code size} rolls
 * every 100 records (and files 3 s old); {@code age} rolls files a second old. It reports its progress as
 * {@link ProgressSink} does, against the end offsets of the topic when it starts. SIGTERM closes cleanly.
 */
public final class ArchiveChild {

    /** Printed when SIGTERM closed the engine, with its health. */
    static final String CLOSED = "SLUICE-CLOSED ";

    private ArchiveChild() {
    }

    public static void main(String[] args) throws Exception {
        String bootstrap = args[0];
        String topic = args[1];
        RollingPolicy rolling = args[4].equals("size")
                ? new RollingPolicy(1L << 30, 100, Duration.ofSeconds(3), 16)
                : new RollingPolicy(1L << 30, 1_000_000, Duration.ofSeconds(1), 16);
        ArchiveSink sink = new ArchiveSink(new TestStorage(args[3]).open(),
                new Layout("{topic}/hr={ts:HH}/category={value.category}/", null, ZoneOffset.UTC, null),
                new JsonLinesFormat(Codec.ZSTD, false, false), rolling, true);
        EngineConfig config = EngineConfig.builder()
                .bootstrapServers(bootstrap)
                .topics(topic)
                .groupId(args[2])
                .consumerProperty("group.instance.id", args[5])
                .consumerProperty("session.timeout.ms", 2_000)
                .consumerProperty("heartbeat.interval.ms", 300)
                .consumerProperty("max.poll.records", 50)
                .commitInterval(Duration.ofMillis(200))
                .drainTimeout(Duration.ofSeconds(10))
                .build();
        Engine engine = Engine.startSink(config, new ProgressSink(sink, endOffsets(bootstrap, topic)));
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            engine.close();
            try {
                sink.close();
            } catch (Exception e) {
                e.printStackTrace();
            }
            System.out.println(CLOSED + engine.health() + " " + engine.failure().map(String::valueOf).orElse(""));
            System.out.flush();
        }, "close-engine"));
        System.out.println("SLUICE-READY");
        System.out.flush();
        engine.awaitTermination(Duration.ofDays(1));
    }

    /** The topic's end offsets now; the test produced everything before starting this JVM. */
    private static Map<Integer, Long> endOffsets(String bootstrap, String topic) throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            int partitions = admin.describeTopics(java.util.List.of(topic)).allTopicNames().get().get(topic)
                    .partitions().size();
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            for (int p = 0; p < partitions; p++) {
                latest.put(new TopicPartition(topic, p), OffsetSpec.latest());
            }
            return admin.listOffsets(latest).all().get().entrySet().stream()
                    .collect(Collectors.toMap(e -> e.getKey().partition(), e -> e.getValue().offset()));
        }
    }
}
