package io.sluice.core;

import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Chooses the lane of a record within its partition, like a sub-partitioner: records given the same number run in
 * offset order, others in parallel. Any int is fine; the engine spreads it over the partition's lanes. Called on
 * the consumer thread for every record, so it must be fast and must not block. It sees the raw bytes.
 */
@FunctionalInterface
public interface LaneFunction {

    int lane(ConsumerRecord<byte[], byte[]> record);
}
