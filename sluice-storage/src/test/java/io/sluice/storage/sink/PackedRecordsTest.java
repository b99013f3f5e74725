package io.sluice.storage.sink;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;

/** Held records come back as they went in, whatever they hold, and log lines take a fraction of their size. */
class PackedRecordsTest {

    private static final TopicPartition PARTITION = new TopicPartition("clicks", 3);

    @Test
    void everyRecordComesBackAsItWentInAcrossChunks() {
        Random random = new Random(17);
        List<ConsumerRecord<byte[], byte[]>> in = new ArrayList<>();
        PackedRecords packed = new PackedRecords();
        for (int i = 0; i < 2_000; i++) {
            RecordHeaders headers = new RecordHeaders();
            if (i % 3 == 0) {
                headers.add("trace", ("t" + i).getBytes(StandardCharsets.UTF_8));
                headers.add("empty", null);
            }
            byte[] value = i % 97 == 0 ? null : new byte[i == 500 ? 3 * PackedRecords.CHUNK : random.nextInt(300)];
            if (value != null) {
                random.nextBytes(value);
            }
            ConsumerRecord<byte[], byte[]> r = new ConsumerRecord<>(PARTITION.topic(), PARTITION.partition(),
                    1_000 + 2L * i, 1_700_000_000_000L + i, i % 2 == 0 ? TimestampType.CREATE_TIME
                    : TimestampType.LOG_APPEND_TIME, -1, -1, i % 5 == 0 ? null : ("k" + i).getBytes(
                    StandardCharsets.UTF_8), value, headers, Optional.empty());
            in.add(r);
            packed.add(r, PackedRecords.rawSize(r));
        }
        assertEquals(1_000, packed.firstOffset());
        assertEquals(2_000, packed.records());
        Iterator<ConsumerRecord<byte[], byte[]>> out = packed.records(PARTITION);
        for (ConsumerRecord<byte[], byte[]> expected : in) {
            assertTrue(out.hasNext());
            ConsumerRecord<byte[], byte[]> got = out.next();
            assertEquals(expected.topic(), got.topic());
            assertEquals(expected.partition(), got.partition());
            assertEquals(expected.offset(), got.offset());
            assertEquals(expected.timestamp(), got.timestamp());
            assertEquals(expected.timestampType(), got.timestampType());
            assertArrayEquals(expected.key(), got.key());
            assertArrayEquals(expected.value(), got.value(), "offset " + expected.offset());
            assertArrayEquals(expected.headers().toArray(), got.headers().toArray());
        }
        assertFalse(out.hasNext());
    }

    @Test
    void logLinesTakeAFractionOfTheirSizeHeld() {
        PackedRecords packed = new PackedRecords();
        long raw = 0;
        for (int i = 0; i < 5_000; i++) {
            String line = "{\"ts\":\"2026-11-26T10:" + (i % 60) + ":00Z\",\"service\":\"checkout\",\"level\":\"INFO\","
                    + "\"path\":\"/api/cart/" + i + "\",\"status\":200,\"latency_ms\":" + (i % 250)
                    + ",\"message\":\"request served for a returning customer\"}";
            ConsumerRecord<byte[], byte[]> r = new ConsumerRecord<>(PARTITION.topic(), PARTITION.partition(), i, null,
                    line.getBytes(StandardCharsets.UTF_8));
            int size = PackedRecords.rawSize(r);
            raw += size;
            packed.add(r, size);
        }
        assertEquals(raw, packed.rawBytes());
        System.out.printf("[packed] %,d bytes serialized held in %,d%n", raw, packed.heapBytes());
        assertTrue(packed.heapBytes() < raw / 3, packed.heapBytes() + " bytes held for " + raw);
    }
}
