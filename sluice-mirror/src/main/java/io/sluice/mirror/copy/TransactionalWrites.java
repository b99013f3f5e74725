package io.sluice.mirror.copy;

import io.sluice.core.commit.TargetTransactionCommit;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;

/**
 * Exactly once: each copy goes into its source partition's open transaction, which the engine commits with the
 * source offsets. Nothing to wait for before a checkpoint: committing the transaction flushes its sends, and a send
 * that failed makes the commit fail (the engine then stops and a restart copies again from the last commit).
 *
 * <p>Threading: as {@link TargetWrites}.
 */
public final class TransactionalWrites implements TargetWrites {

    private final TargetTransactionCommit transactions;

    public TransactionalWrites(TargetTransactionCommit transactions) {
        this.transactions = transactions;
    }

    @Override
    public Future<RecordMetadata> send(TopicPartition source, ProducerRecord<byte[], byte[]> copy) {
        return transactions.sender(source).send(copy);
    }

    @Override
    public Collection<Map<MetricName, ? extends Metric>> producerMetrics() {
        return transactions.producerMetrics();
    }

    @Override
    public void flush(TopicPartition source) {
        // the transaction's commit flushes and fails on any failed send
    }
}
