package io.sluice.cli.run;

import io.sluice.core.sink.Sink;
import io.sluice.core.sink.SinkCheckpoint;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;

/**
 * Counts the records and bytes (key + value, as read from Kafka) that reach a sink, for the progress line; passes
 * every call through unchanged.
 *
 * <p>Threading: as the sink it wraps; the counters are safe to read from any thread.
 */
final class MeteredSink implements Sink {

    private final Sink sink;
    final LongAdder records = new LongAdder();
    final LongAdder bytes = new LongAdder();

    MeteredSink(Sink sink) {
        this.sink = sink;
    }

    @Override
    public void open(TopicPartition partition, Uuid topicId, long committedOffset, Optional<String> committedData)
            throws Exception {
        sink.open(partition, topicId, committedOffset, committedData);
    }

    @Override
    public void write(ConsumerRecord<byte[], byte[]> record) throws Exception {
        sink.write(record);
        records.increment();
        bytes.add(Math.max(0, record.serializedKeySize()) + Math.max(0, record.serializedValueSize()));
    }

    @Override
    public SinkCheckpoint checkpoint(TopicPartition partition, boolean last) throws Exception {
        return sink.checkpoint(partition, last);
    }

    @Override
    public void committed(TopicPartition partition, SinkCheckpoint checkpoint) throws Exception {
        sink.committed(partition, checkpoint);
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
