package io.sluice.core.commit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.function.DoubleSupplier;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
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

    /**
     * Less than half free is no room, however small the run: other partitions' lanes append to a shared producer
     * meanwhile (a stand-in for a producer's two metrics: a real one's buffer fills only against a broker that does
     * not answer).
     */
    @Test
    void lessThanHalfTheBufferFreeIsNoRoomForEvenOneRecord() {
        double[] free = {600_000};
        Metric available = gauge("buffer-available-bytes", () -> free[0]);
        Metric total = gauge("buffer-total-bytes", () -> 1_000_000.0);
        ProducerRoom room = new ProducerRoom(available, total, 16_384);
        assertTrue(room.takes(1, 100));
        free[0] = 499_999;
        assertFalse(room.takes(1, 100), "under half free");
        assertFalse(new ProducerRoom(null, total, 16_384).takes(1, 100), "no metric to say: no promise");
    }

    private static Metric gauge(String name, DoubleSupplier value) {
        MetricName metricName = new MetricName(name, "producer-metrics", "", Map.of());
        return new Metric() {
            @Override
            public MetricName metricName() {
                return metricName;
            }

            @Override
            public Object metricValue() {
                return value.getAsDouble();
            }
        };
    }

    @Test
    void theBatchSizeIsTheProducersOwnOrKafkasDefault() {
        assertEquals(262_144, ProducerRoom.batchSize(Map.of(ProducerConfig.BATCH_SIZE_CONFIG, "262144")));
        assertEquals(16_384, ProducerRoom.batchSize(Map.of()));
    }
}
