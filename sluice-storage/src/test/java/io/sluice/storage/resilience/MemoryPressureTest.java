package io.sluice.storage.resilience;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.core.Engine;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.storage.backend.LocalBackend;
import io.sluice.storage.codec.Codec;
import io.sluice.storage.format.JsonLinesFormat;
import io.sluice.storage.layout.Layout;
import io.sluice.storage.rolling.RollingPolicy;
import io.sluice.storage.sink.ArchiveSink;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import io.sluice.testkit.TestDirs;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/** The sink-wide memory limit: over it, the partition holding the most rolls early, and nothing is lost for it. */
class MemoryPressureTest {

    private static final KafkaCluster KAFKA = SharedKafka.cluster();
    /**
     * What a small local open file holds: its first chunk of rows (4 KiB), no write buffer and no codec before its
     * first 64 KiB (docs/rolling.md).
     */
    private static final long PER_FILE = 4 * 1024;

    @Test
    void overTheLimitThePartitionHoldingMostRollsAndTheOthersKeepTheirFiles() throws Exception {
        String topic = Names.unique("pressure");
        KAFKA.createTopic(topic, 2);
        int partition0 = 200;
        int partition1 = 20; // few enough that its one file stays within its first chunk (4 KiB), as each of the others
        // partition 0 spreads over 8 categories (up to 8 open files), partition 1 has one
        try (var producer = new KafkaProducer<>(KAFKA.clientProperties(Listener.PLAINTEXT), new StringSerializer(),
                new StringSerializer())) {
            for (int i = 0; i < partition0; i++) {
                producer.send(new ProducerRecord<>(topic, 0, null, "{\"category\":\"c" + (i % 8) + "\",\"i\":" + i
                        + "}"));
                if (i % (partition0 / partition1) == 0) {
                    producer.send(new ProducerRecord<>(topic, 1, null, "{\"category\":\"solo\",\"i\":" + i + "}"));
                }
            }
            producer.flush();
        }
        int records = partition0 + partition1;
        LocalBackend backend = new LocalBackend(TestDirs.newDir("pressure"));
        // five small files' worth: partition 0 goes over it with its fifth or sixth file, partition 1 never holds the most
        ArchiveSink sink = new ArchiveSink(backend, new Layout("{topic}/category={value.category}/", null,
                ZoneOffset.UTC, null), new JsonLinesFormat(Codec.ZSTD, false, false),
                new RollingPolicy(1L << 30, 1_000_000, Duration.ofHours(1), 16), true, 5 * PER_FILE);
        EngineRuns.untilWritten(Engine.startSink(EngineRuns.config(KAFKA, topic).build(), sink), records,
                Duration.ofSeconds(60));

        VisibleOffsets.assertExactlyOnce(VisibleOffsets.read(backend), Map.of(0, (long) partition0, 1,
                (long) partition1));
        long pressureRolls = sink.counters().pressureRolls();
        System.out.println("[pressure] " + pressureRolls + " pressure rolls, " + sink.counters().rolls() + " rolls");
        // Partition 0 holds at most four files beside partition 1's one, five before partition 1's lane has written
        // its first record (the lanes run in parallel, so that moment is not fixed): a roll at least every sixth file.
        assertTrue(pressureRolls >= partition0 / 6, pressureRolls + " pressure rolls: partition 0 must roll whenever "
                + "the open files would hold more than five files' worth");
        List<String> solo = VisibleOffsets.files(backend).stream().filter(f -> f.contains("category=solo/")).toList();
        assertEquals(1, solo.size(), "partition 1 never held the most, so it rolled only at close: " + solo);
        assertEquals(0, sink.bufferedBytes(), "nothing held after close");
    }
}
