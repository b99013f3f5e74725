package io.sluice.audit.crash;

import io.sluice.core.Engine;
import io.sluice.core.EngineConfig;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.process.ChildJvm;
import io.sluice.local.process.ChildProcess;
import io.sluice.storage.backend.TestStorage;
import io.sluice.storage.codec.Codec;
import io.sluice.storage.format.JsonLinesFormat;
import io.sluice.storage.layout.Layout;
import io.sluice.storage.rolling.RollingPolicy;
import io.sluice.storage.sink.ArchiveSink;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;

/**
 * The archive in a child JVM, for crash and zombie tests:
 * {@code ArchiveChild <bootstrap> <topic> <group> <storage spec> <size|age> <group instance id>}, with the sink of
 * {@link #sink}. It prints its progress ({@link ProgressSink}) against the end offsets of the topic when it starts.
 * SIGTERM closes cleanly.
 */
public final class ArchiveChild {

    /** Printed when SIGTERM closed the engine, with its health. */
    static final String CLOSED = "SLUICE-CLOSED ";

    /** What the test kit's own servers run with: a child that lives seconds should not spend them compiling. */
    private static final List<String> JVM_OPTIONS = KafkaCluster.TEST_JVM_OPTIONS;

    private ArchiveChild() {
    }

    /**
     * Starts an archive child as group member {@code instance} (also the name of its log in {@code dir}) and waits
     * until its engine runs.
     */
    static ChildProcess start(String instance, Path dir, List<String> jvmOptions, String bootstrap, String topic,
            String group, TestStorage storage, String rolling) {
        List<String> options = new ArrayList<>(JVM_OPTIONS);
        options.addAll(jvmOptions);
        ChildProcess child = ChildJvm.builder(instance)
                .classpathOfThisJvm()
                .jvmOptions(options)
                .mainClass(ArchiveChild.class.getName())
                .args(bootstrap, topic, group, storage.spec(), rolling, instance)
                .workDir(dir)
                .build()
                .start();
        child.awaitLogLine(l -> l.startsWith("SLUICE-READY"), Duration.ofSeconds(60));
        return child;
    }

    public static void main(String[] args) throws Exception {
        String bootstrap = args[0];
        String topic = args[1];
        ArchiveSink sink = sink(new TestStorage(args[3]), args[4]);
        Engine engine = Engine.startSink(config(bootstrap, topic, args[2], args[5]), new ProgressSink(sink,
                endOffsets(bootstrap, topic), line -> {
                    System.out.println(line);
                    System.out.flush();
                }));
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

    /**
     * The archive sink of these tests: exactly once, JSON Lines + zstd by hour and category; {@code size} rolls every
     * 100 records (and files 3 s old), {@code age} rolls files a second old, and {@code evict} (for records of 4 KB,
     * one in 20 late by hours) allows 2 open files: the current hour's third category and the late hours are held in
     * memory and written at each roll, and once the third category holds 64 KiB it evicts the least recently written
     * file (sealed alone and parked, until 8 parked files roll everything, or files 3 s old do). Manifests below the
     * committed one are
     * folded into summaries at every commit ({@link #FOLD_MANIFESTS_AFTER}), so every crash and zombie case runs with
     * manifests being removed, and the retention's own steps can be crashed at.
     */
    static ArchiveSink sink(TestStorage storage, String rolling) throws java.io.IOException {
        return new ArchiveSink(storage.open(),
                new Layout("{topic}/hr={ts:HH}/category={value.category}/", null, ZoneOffset.UTC, null),
                new JsonLinesFormat(Codec.ZSTD, false, false), switch (rolling) {
                    case "size" -> new RollingPolicy(1L << 30, 100, Duration.ofSeconds(3), 16);
                    case "evict" -> new RollingPolicy(1L << 30, 1_000_000, Duration.ofSeconds(3), 2);
                    default -> new RollingPolicy(1L << 30, 1_000_000, Duration.ofSeconds(1), 16);
                }, true,
                ArchiveSink.DEFAULT_MAX_BUFFERED_BYTES, ArchiveSink.DEFAULT_COMPRESSING_THREADS, FOLD_MANIFESTS_AFTER);
    }

    /** A child writes a few manifests per partition in its life: the default (16) would never fold. */
    static final int FOLD_MANIFESTS_AFTER = 1;

    /**
     * Static membership, so a restart takes the crashed member's place at once; sessions of 2 s for zombies. Records
     * the archive rejects go to {@link #deadLetterTopic}, in the source cluster: exactly once, like the files.
     */
    static EngineConfig config(String bootstrap, String topic, String group, String instance) {
        return EngineConfig.builder()
                .bootstrapServers(bootstrap)
                .topics(topic)
                .groupId(group)
                .deadLetterTopic(deadLetterTopic(topic))
                .consumerProperty("group.instance.id", instance)
                .consumerProperty("session.timeout.ms", 2_000)
                .consumerProperty("heartbeat.interval.ms", 300)
                .consumerProperty("max.poll.records", 50)
                .commitInterval(Duration.ofMillis(200))
                .drainTimeout(Duration.ofSeconds(10))
                .build();
    }

    /** Where the archive of {@code topic} dead-letters the records it rejects. */
    static String deadLetterTopic(String topic) {
        return topic + "-dlq";
    }

    /** The topic's end offsets now; the test produced everything before starting the archive. */
    static Map<Integer, Long> endOffsets(String bootstrap, String topic) throws Exception {
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
