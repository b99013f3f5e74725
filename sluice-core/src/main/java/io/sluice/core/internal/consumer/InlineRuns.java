package io.sluice.core.internal.consumer;

import io.sluice.core.internal.lane.Lane;
import io.sluice.core.internal.lane.RecordSize;
import io.sluice.core.sink.Sink;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * Where a fetch's run of records for a lane is written: on the consumer thread, when the engine allows it, the lane is
 * idle and the sink promises the writes cannot wait ({@link Sink#writesWithoutWaiting}); else by a worker, queued as
 * always (docs/design/inline-runs.md).
 *
 * <p>Threading: the consumer thread.
 */
final class InlineRuns {

    /** Every run to a worker: handlers, or inline runs turned off. */
    static final InlineRuns NEVER = new InlineRuns(null);

    private final Sink sink;

    private InlineRuns(Sink sink) {
        this.sink = sink;
    }

    /** A sink's runs written here when they may be; a handler's (a null sink) never. */
    static InlineRuns of(Sink sink, boolean enabled) {
        return sink == null || !enabled ? NEVER : new InlineRuns(sink);
    }

    /** Hands {@code records} of {@code partition} to {@code lane}: written here, or queued for a worker. */
    void handOver(TopicPartition partition, Lane lane, Object[] records) {
        if (sink == null || !lane.runHere(records, () -> sink.writesWithoutWaiting(partition, records.length, bytes(records)))) {
            lane.addRun(records);
        }
    }

    @SuppressWarnings("unchecked")
    private static long bytes(Object[] records) {
        long bytes = 0;
        for (Object record : records) {
            bytes += RecordSize.of((ConsumerRecord<byte[], byte[]>) record);
        }
        return bytes;
    }
}
