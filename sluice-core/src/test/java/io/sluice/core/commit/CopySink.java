package io.sluice.core.commit;

import io.sluice.core.sink.Sink;
import io.sluice.core.sink.SinkCheckpoint;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;

/**
 * A test sink that copies each source partition p into partition p of a target topic, through the partition's
 * transaction: the smallest mirror. Its checkpoint is the offset after the last record it sent; the transaction that
 * commits that offset also commits the records, so it needs no data of its own.
 *
 * <p>Threading: each partition's calls come from its lane; the map is shared by the partitions.
 */
final class CopySink implements Sink {

    private final TargetTransactionCommit transactions;
    private final String targetTopic;
    private final Map<TopicPartition, Long> next = new ConcurrentHashMap<>();

    CopySink(TargetTransactionCommit transactions, String targetTopic) {
        this.transactions = transactions;
        this.targetTopic = targetTopic;
    }

    @Override
    public void open(TopicPartition partition, Uuid topicId, long committedOffset, Optional<String> committedData) {
        next.put(partition, committedOffset);
    }

    @Override
    public void write(ConsumerRecord<byte[], byte[]> record) {
        transactions.sender(new TopicPartition(record.topic(), record.partition())).send(new ProducerRecord<>(
                targetTopic, record.partition(), record.timestamp(), record.key(), record.value(), record.headers()));
        next.put(new TopicPartition(record.topic(), record.partition()), record.offset() + 1);
    }

    @Override
    public SinkCheckpoint checkpoint(TopicPartition partition, boolean last) {
        return new SinkCheckpoint(next.get(partition), "");
    }

    @Override
    public void committed(TopicPartition partition, SinkCheckpoint checkpoint) {
        // the transaction made the copies visible
    }

    @Override
    public void notCommitted(TopicPartition partition, SinkCheckpoint checkpoint, boolean certain) {
        // an aborted transaction took its copies with it; the engine stops and a restart copies them again
    }

    @Override
    public void close(TopicPartition partition, boolean lost) {
        next.remove(partition);
    }

    @Override
    public long bufferedBytes(TopicPartition partition) {
        return 0;
    }
}
