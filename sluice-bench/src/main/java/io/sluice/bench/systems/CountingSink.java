package io.sluice.bench.systems;

import io.sluice.core.sink.ForwardingSink;
import io.sluice.core.sink.Sink;
import io.sluice.core.sink.SinkCheckpoint;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * A sink that passes everything on and watches: it counts the records written into the {@link Measurement}, and
 * remembers up to which offset each partition's output is published (its {@link #committed} has returned), which the
 * broker cannot tell.
 *
 * <p>Threading: as {@link Sink}; the published offsets are read by the benchmark's main thread.
 */
final class CountingSink extends ForwardingSink {

    private final Measurement measurement;
    private final Map<TopicPartition, Long> published = new ConcurrentHashMap<>();

    CountingSink(Sink sink, Measurement measurement) {
        super(sink);
        this.measurement = measurement;
    }

    /** Whether every partition's output is published up to its end offset. */
    boolean publishedUpTo(Map<TopicPartition, Long> ends) {
        return ends.entrySet().stream().allMatch(e -> e.getValue() == 0
                || published.getOrDefault(e.getKey(), 0L) >= e.getValue());
    }

    @Override
    public void write(ConsumerRecord<byte[], byte[]> record) throws Exception {
        super.write(record);
        measurement.handled(record.serializedValueSize());
    }

    @Override
    public void committed(TopicPartition partition, SinkCheckpoint checkpoint) throws Exception {
        super.committed(partition, checkpoint);
        published.merge(partition, checkpoint.offset(), Math::max);
    }
}
