package io.sluice.core.internal.lane;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

/** The bytes a record holds in memory as the budget counts them: key, value and headers. */
public final class RecordSize {

    private RecordSize() {
    }

    public static long of(ConsumerRecord<byte[], byte[]> record) {
        long size = Math.max(0, record.serializedKeySize()) + Math.max(0, record.serializedValueSize());
        for (Header h : record.headers()) {
            size += h.key().length() + (h.value() == null ? 0 : h.value().length);
        }
        return size;
    }
}
