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
import java.util.Base64;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/** The sink-wide memory limit: over it, the partition holding the most rolls early, and nothing is lost for it. */
class MemoryPressureTest {

    private static final KafkaCluster KAFKA = SharedKafka.cluster();
    /**
     * Partition 0's records: a category of eight and 2,000 characters of random text each (base64 of random bytes),
     * which zstd packs to no less than 1/1.4 of its size when the records are held.
     */
    private static final int PAD_LENGTH = 2_000;

    @Test
    void overTheLimitThePartitionHoldingMostRollsAndTheOthersKeepTheirFiles() throws Exception {
        String topic = Names.unique("pressure");
        KAFKA.createTopic(topic, 2);
        int partition0 = 800;
        int partition1 = 20;
        // partition 0 spreads over 8 categories (some open files, the rest held), partition 1 has one
        Random random = new Random(8);
        try (var producer = new KafkaProducer<>(KAFKA.clientProperties(Listener.PLAINTEXT), new StringSerializer(),
                new StringSerializer())) {
            for (int i = 0; i < partition0; i++) {
                byte[] noise = new byte[PAD_LENGTH * 3 / 4];
                random.nextBytes(noise);
                producer.send(new ProducerRecord<>(topic, 0, null, "{\"category\":\"c" + (i % 8) + "\",\"i\":" + i
                        + ",\"pad\":\"" + Base64.getEncoder().encodeToString(noise) + "\"}"));
                if (i % (partition0 / partition1) == 0) {
                    producer.send(new ProducerRecord<>(topic, 1, null, "{\"category\":\"solo\",\"i\":" + i + "}"));
                }
            }
            producer.flush();
        }
        int records = partition0 + partition1;
        LocalBackend backend = new LocalBackend(TestDirs.newDir("pressure"));
        // partition 0 brings at least 1.4 KiB of heap per record, held (packed) or in an open file: about four times
        // the limit in all; partition 1 a few KiB in all, so it never holds the most
        long limit = 320 << 10;
        ArchiveSink sink = new ArchiveSink(backend, new Layout("{topic}/category={value.category}/", null,
                ZoneOffset.UTC, null), new JsonLinesFormat(Codec.ZSTD, false, false),
                new RollingPolicy(1L << 30, 1_000_000, Duration.ofHours(1), 16), true, limit);
        EngineRuns.untilWritten(Engine.startSink(EngineRuns.config(KAFKA, topic).build(), sink), records,
                Duration.ofSeconds(60));

        VisibleOffsets.assertExactlyOnce(VisibleOffsets.read(backend), Map.of(0, (long) partition0, 1,
                (long) partition1));
        long pressureRolls = sink.counters().pressureRolls();
        System.out.println("[pressure] " + pressureRolls + " pressure rolls, " + sink.counters().rolls() + " rolls");
        // a pressure roll of partition 0 comes once it holds more than the limit less partition 1's few KiB, and it
        // holds at most the limit and a record then: so at least (its heap / (limit + a record)) of them
        long partition0Heap = partition0 * (PAD_LENGTH * 10L / 14);
        assertTrue(pressureRolls >= partition0Heap / (limit + PAD_LENGTH), pressureRolls + " pressure rolls for "
                + partition0Heap + " bytes of heap at least, over a limit of " + limit);
        List<String> solo = VisibleOffsets.files(backend).stream().filter(f -> f.contains("category=solo/")).toList();
        assertEquals(1, solo.size(), "partition 1 never held the most, so it rolled only at close: " + solo);
        assertEquals(0, sink.bufferedBytes(), "nothing held after close");
    }
}
