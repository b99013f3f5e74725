package io.sluice.core.sink;

import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;

/**
 * A sink that passes every call on to another, for sinks that only watch or count: subclasses override what they
 * observe and call {@code super}.
 *
 * <p>Threading: as {@link Sink}; it adds no state of its own.
 */
public abstract class ForwardingSink implements Sink {

    private final Sink delegate;

    protected ForwardingSink(Sink delegate) {
        this.delegate = delegate;
    }

    @Override
    public void open(TopicPartition partition, Uuid topicId, long committedOffset, Optional<String> committedData)
            throws Exception {
        delegate.open(partition, topicId, committedOffset, committedData);
    }

    @Override
    public void write(ConsumerRecord<byte[], byte[]> record) throws Exception {
        delegate.write(record);
    }

    @Override
    public SinkCheckpoint checkpoint(TopicPartition partition, boolean last) throws Exception {
        return delegate.checkpoint(partition, last);
    }

    @Override
    public boolean exactlyOnce() {
        return delegate.exactlyOnce();
    }

    @Override
    public void committed(TopicPartition partition, SinkCheckpoint checkpoint) throws Exception {
        delegate.committed(partition, checkpoint);
    }

    @Override
    public void notCommitted(TopicPartition partition, SinkCheckpoint checkpoint, boolean certain) throws Exception {
        delegate.notCommitted(partition, checkpoint, certain);
    }

    @Override
    public void close(TopicPartition partition, boolean lost) throws Exception {
        delegate.close(partition, lost);
    }

    @Override
    public long bufferedBytes(TopicPartition partition) {
        return delegate.bufferedBytes(partition);
    }

    @Override
    public void relieve(TopicPartition partition) throws Exception {
        delegate.relieve(partition);
    }

    @Override
    public void abandon() {
        delegate.abandon();
    }

    @Override
    public Optional<String> unableToFinish() {
        return delegate.unableToFinish();
    }

    @Override
    public void close() throws Exception {
        delegate.close();
    }
}
