package io.sluice.core.commit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/**
 * A producer's room, read from a real producer's metrics (a producer's buffer is all free until it sends: no broker is
 * needed to read it).
 */
class ProducerRoomTest {

    private static KafkaProducer<byte[], byte[]> producer(long bufferMemory) {
        return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:9",
                ProducerConfig.BUFFER_MEMORY_CONFIG, bufferMemory), new ByteArraySerializer(),
                new ByteArraySerializer());
    }

    @Test
    void aRunFitsWhenItsBytesTheirFramingAndTwoBatchesFitInTheFreeMemory() {
        try (KafkaProducer<byte[], byte[]> producer = producer(1 << 20)) {
            ProducerRoom room = ProducerRoom.of(producer, 256 * 1024);
            long framing = 1_000L * ProducerRoom.RECORD_OVERHEAD;
            long fits = (1 << 20) - 2L * 256 * 1024 - framing;
            assertTrue(room.takes(1_000, fits), "exactly the free memory");
            assertFalse(room.takes(1_000, fits + 1), "a byte more");
            assertFalse(room.takes(10_000, 100), "ten thousand records' framing alone is more than the room left");
        }
    }

    @Test
    void theBatchSizeIsTheProducersOwnOrKafkasDefault() {
        assertEquals(262_144, ProducerRoom.batchSize(Map.of(ProducerConfig.BATCH_SIZE_CONFIG, "262144")));
        assertEquals(16_384, ProducerRoom.batchSize(Map.of()));
    }
}
