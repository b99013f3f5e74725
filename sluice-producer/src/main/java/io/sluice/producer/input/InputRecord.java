package io.sluice.producer.input;

import java.util.List;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;

/**
 * A record parsed from one input line, before it has a topic.
 *
 * @param key       null for none
 * @param value     null for a tombstone (an envelope's {@code "value": null})
 * @param partition null to let the producer's partitioner choose
 * @param timestamp null to let the producer stamp it
 */
public record InputRecord(Origin origin, byte[] key, byte[] value, List<Header> headers, Integer partition,
        Long timestamp) {

    public InputRecord {
        headers = List.copyOf(headers);
    }

    /** A record with only a key (or none) and a value. */
    public static InputRecord of(Origin origin, byte[] key, byte[] value) {
        return new InputRecord(origin, key, value, List.of(), null, null);
    }

    public ProducerRecord<byte[], byte[]> toProducerRecord(String topic) {
        return new ProducerRecord<>(topic, partition, timestamp, key, value, headers);
    }

    /** Key and value bytes, as the summary counts what was sent. */
    public long size() {
        return (key == null ? 0 : key.length) + (value == null ? 0 : value.length);
    }
}
