package io.sluice.core.commit;

import java.util.Map;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.config.ConfigDef;

/**
 * Whether a producer's buffer takes more records without {@code send} waiting for memory: at least half of its
 * {@code buffer.memory} free, and more than the records will take (their bytes, a record's framing and headers
 * beside them, and two batches a send may open, {@code batch.size} each). The half leaves room for other threads
 * sending through the same producer meanwhile (an at-least-once mirror shares its producers past eight partitions),
 * so that a caller that must not wait (the engine's consumer thread writing a run, docs/design/inline-runs.md) does not
 * wait on memory.
 *
 * <p>Threading: any thread; the producer's own metrics are thread-safe.
 */
public final class ProducerRoom {

    /**
     * What a record takes beside its key, value and headers' bytes: its framing in the batch (a few varints) and the
     * headers a sink adds (a mirror's provenance, about 60 bytes), with a margin.
     */
    static final int RECORD_OVERHEAD = 128;

    private final Metric available;
    private final Metric total;
    private final int batchSize;

    ProducerRoom(Metric available, Metric total, int batchSize) {
        this.available = available;
        this.total = total;
        this.batchSize = batchSize;
    }

    /** The room of {@code producer}, whose {@code batch.size} is {@code batchSize}; its metrics found once. */
    public static ProducerRoom of(Producer<?, ?> producer, int batchSize) {
        Map<MetricName, ? extends Metric> metrics = producer.metrics();
        return new ProducerRoom(ClientMetrics.producerMetric(metrics, "buffer-available-bytes"),
                ClientMetrics.producerMetric(metrics, "buffer-total-bytes"),
                batchSize);
    }

    /** The {@code batch.size} that {@code producerProperties} give, or Kafka's default. */
    public static int batchSize(Map<String, ?> producerProperties) {
        Object set = producerProperties.get(ProducerConfig.BATCH_SIZE_CONFIG);
        if (set == null) {
            set = ProducerConfig.configDef().defaultValues().get(ProducerConfig.BATCH_SIZE_CONFIG);
        }
        return (Integer) ConfigDef.parseType(ProducerConfig.BATCH_SIZE_CONFIG, set, ConfigDef.Type.INT);
    }

    /**
     * Whether {@code records} records of {@code bytes} (keys, values, headers) can be sent now without waiting for
     * memory; false when the producer's metrics are not there to say.
     */
    public boolean takes(int records, long bytes) {
        double free = ClientMetrics.value(available);
        double all = ClientMetrics.value(total);
        double need = bytes + (double) records * RECORD_OVERHEAD + 2.0 * batchSize;
        return free >= all / 2 && free >= need; // false when either is NaN
    }
}
