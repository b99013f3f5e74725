package io.sluice.core.internal.consumer;

import io.sluice.core.internal.lane.RecordSize;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;

/**
 * A limit on the bytes read from the brokers per second, as a token bucket that may go into debt: every poll's
 * records are charged when they arrive, and while the bucket is in debt the consumer loop pauses every partition
 * (and keeps polling, so the member stays in its group). A poll is allowed only out of debt, so over any stretch of
 * time the bytes read stay under the rate times the time, plus the bucket (a tenth of a second's worth) and one poll.
 *
 * <p>Fetch sizes shrink to a fraction of a second's worth ({@link #capFetchSizes}), so the consumer's read-ahead
 * stays small and the broker serves the run in small steps rather than in bursts.
 *
 * <p>Threading: confined to the consumer thread.
 */
public final class ReadRateLimit {

    private static final long MIN_FETCH = 1024;

    private final double bytesPerNano;
    private final double capacity;
    private double tokens;
    private long lastNanos;

    public ReadRateLimit(long bytesPerSecond, long nowNanos) {
        this.bytesPerNano = bytesPerSecond / 1e9;
        this.capacity = bytesPerSecond / 10.0;
        this.lastNanos = nowNanos;
    }

    /**
     * Lowers {@code max.partition.fetch.bytes} to a sixteenth of a second's worth and {@code fetch.max.bytes} to a
     * quarter, wherever they come from (at least 1 KiB; Kafka still returns a whole batch when one is bigger).
     */
    public static void capFetchSizes(Map<String, Object> consumerProperties, long bytesPerSecond) {
        cap(consumerProperties, ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, bytesPerSecond / 16);
        cap(consumerProperties, ConsumerConfig.FETCH_MAX_BYTES_CONFIG, bytesPerSecond / 4);
    }

    private static void cap(Map<String, Object> props, String key, long limit) {
        long cap = Math.max(MIN_FETCH, Math.min(Integer.MAX_VALUE, limit));
        Object current = props.get(key);
        if (current == null || Long.parseLong(String.valueOf(current).trim()) > cap) {
            props.put(key, (int) cap);
        }
    }

    /** Charges the bytes of a poll's records. */
    void fetched(ConsumerRecords<byte[], byte[]> records, long nowNanos) {
        if (records.isEmpty()) {
            return;
        }
        long bytes = 0;
        for (ConsumerRecord<byte[], byte[]> r : records) {
            bytes += RecordSize.of(r);
        }
        charge(bytes, nowNanos);
    }

    void charge(long bytes, long nowNanos) {
        refill(nowNanos);
        tokens -= bytes;
    }

    /** Whether reading must pause: the run has read more than the rate allows so far. */
    boolean inDebt(long nowNanos) {
        refill(nowNanos);
        return tokens < 0;
    }

    private void refill(long nowNanos) {
        tokens = Math.min(capacity, tokens + (nowNanos - lastNanos) * bytesPerNano);
        lastNanos = nowNanos;
    }
}
