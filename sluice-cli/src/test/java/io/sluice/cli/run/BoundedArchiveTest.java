package io.sluice.cli.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cli.EngineTestSupport;
import io.sluice.core.Engine;
import io.sluice.core.EngineConfig;
import io.sluice.core.Health;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.storage.backend.LocalBackend;
import io.sluice.storage.codec.Codec;
import io.sluice.storage.format.JsonLinesFormat;
import io.sluice.storage.layout.Layout;
import io.sluice.storage.rolling.RollingPolicy;
import io.sluice.storage.sink.ArchiveSink;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import io.sluice.testkit.TestDirs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** A run until the end into the archive sink: how a backfill or the quick start finishes by itself. */
class BoundedArchiveTest {

    private final KafkaCluster kafka = SharedKafka.cluster();

    @Test
    void anArchiveRunUntilTheEndWritesOutItsLastFilesCommitsTheEndAndStops() throws Exception {
        String topic = Names.unique("backfill");
        kafka.createTopic(topic, 2);
        EngineTestSupport.produceJson(kafka, topic, 1_000);
        Path dir = TestDirs.newDir("backfill-archive");
        EngineConfig config = EngineTestSupport.config(kafka, topic).untilEnd(true).build();
        // files of 300 records and ten minutes of age: the tails are written out only because the run ends
        ArchiveSink sink = new ArchiveSink(new LocalBackend(dir), new Layout("{topic}/", null, ZoneOffset.UTC, null),
                new JsonLinesFormat(Codec.NONE, false, false), new RollingPolicy(1 << 20, 300, Duration.ofMinutes(10),
                        8), true);
        Engine engine = Engine.startSink(config, sink);
        try {
            assertTrue(engine.awaitTermination(Duration.ofSeconds(60)), "stops by itself: " + engine.health());
        } finally {
            engine.close();
        }
        assertEquals(Health.STOPPED, engine.health(), () -> String.valueOf(engine.failure()));
        assertEquals(1_000, lines(dir), "every record in a visible file, once");
        List<TopicPartition> partitions = List.of(new TopicPartition(topic, 0), new TopicPartition(topic, 1));
        Map<TopicPartition, Long> ends = kafka.admin().listOffsets(partitions.stream()
                .collect(Collectors.toMap(tp -> tp, tp -> OffsetSpec.latest()))).all().get(30, TimeUnit.SECONDS)
                .entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().offset()));
        Map<TopicPartition, Long> committed = kafka.admin().listConsumerGroupOffsets(config.groupId())
                .partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS).entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().offset()));
        assertEquals(ends, committed);
    }

    private static long lines(Path dir) throws Exception {
        try (Stream<Path> all = Files.walk(dir)) {
            long n = 0;
            for (Path p : all.filter(Files::isRegularFile).filter(p -> !dir.relativize(p).startsWith("_sluice"))
                    .collect(Collectors.toList())) {
                n += Files.readAllLines(p).size();
            }
            return n;
        }
    }
}
