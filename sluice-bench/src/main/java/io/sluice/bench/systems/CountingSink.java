package io.sluice.bench.systems;

import io.sluice.core.sink.Sink;
import io.sluice.core.sink.SinkCheckpoint;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;

/**
 * A sink that passes everything on and watches: it counts the records written into the {@link Measurement}, and
 * remembers up to which offset each partition's output is published (its {@link #committed} has returned), which the
 * broker cannot tell.
 *
 * <p>Threading: as {@link Sink}; the published offsets are read by the benchmark's main thread.
 */
final class CountingSink implements Sink {

    private final Sink sink;
    private final Measurement measurement;
    private final Map<TopicPartition, Long> published = new ConcurrentHashMap<>();

    CountingSink(Sink sink, Measurement measurement) {
        this.sink = sink;
        this.measurement = measurement;
    }

    /** Whether every partition's output is published up to its end offset. */
    boolean publishedUpTo(Map<TopicPartition, Long> ends) {
        return ends.entrySet().stream().allMatch(e -> e.getValue() == 0
                || published.getOrDefault(e.getKey(), 0L) >= e.getValue());
    }

    @Override
    public void open(TopicPartition partition, Uuid topicId, long committedOffset, Optional<String> committedData)
            throws Exception {
        sink.open(partition, topicId, committedOffset, committedData);
    }

    @Override
    public void write(ConsumerRecord<byte[], byte[]> record) throws Exception {
        sink.write(record);
        measurement.handled(record.serializedValueSize());
    }

    @Override
    public SinkCheckpoint checkpoint(TopicPartition partition, boolean last) throws Exception {
        return sink.checkpoint(partition, last);
    }

    @Override
    public void committed(TopicPartition partition, SinkCheckpoint checkpoint) throws Exception {
        sink.committed(partition, checkpoint);
        published.merge(partition, checkpoint.offset(), Math::max);
    }

    @Override
    public void notCommitted(TopicPartition partition, SinkCheckpoint checkpoint, boolean certain) throws Exception {
        sink.notCommitted(partition, checkpoint, certain);
    }

    @Override
    public void close(TopicPartition partition, boolean lost) throws Exception {
        sink.close(partition, lost);
    }

    @Override
    public long bufferedBytes(TopicPartition partition) {
        return sink.bufferedBytes(partition);
    }

    @Override
    public void close() throws Exception {
        sink.close();
    }
}
