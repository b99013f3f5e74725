package io.sluice.mirror.copy;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;

/**
 * Where copies land, as a sink's pure logic needs it: at once, at the next target offset; and whether the sends could
 * go without waiting, as the test sets it.
 *
 * <p>Threading: the test thread.
 */
final class LandedWrites implements TargetWrites {
    long next;
    boolean room = true;

    @Override
    public Future<RecordMetadata> send(TopicPartition source, ProducerRecord<byte[], byte[]> copy) {
        return CompletableFuture.completedFuture(new RecordMetadata(new TopicPartition(copy.topic(),
                copy.partition()), next++, 0, 0, 0, 0));
    }

    @Override
    public void flush(TopicPartition source) {
    }

    @Override
    public boolean sendsWithoutWaiting(TopicPartition source, int records, long bytes) {
        return room;
    }

    @Override
    public Collection<Map<MetricName, ? extends Metric>> producerMetrics() {
        return List.of(); // no producer
    }
}
