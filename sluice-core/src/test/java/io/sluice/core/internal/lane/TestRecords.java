package io.sluice.core.internal.lane;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

/** Small records for unit tests of the engine's internals: one byte of value, no key. */
public final class TestRecords {

    public static final TopicPartition PARTITION = new TopicPartition("orders", 0);

    private TestRecords() {
    }

    public static ConsumerRecord<byte[], byte[]> at(long offset) {
        return at(PARTITION, offset);
    }

    public static ConsumerRecord<byte[], byte[]> at(TopicPartition partition, long offset) {
        return new ConsumerRecord<>(partition.topic(), partition.partition(), offset, null, new byte[] {1});
    }
}
