package io.sluice.core.commit;

import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.testkit.Names;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * A source topic written by a transactional producer, for tests of what a read_committed consumer steps over: commit
 * and abort markers, aborted records.
 *
 * <p>Threading: one test thread.
 */
public final class TransactionalSource implements AutoCloseable {

    private final KafkaCluster kafka;
    private final KafkaProducer<String, String> producer;

    public TransactionalSource(KafkaCluster kafka) {
        this.kafka = kafka;
        Map<String, Object> props = new HashMap<>(kafka.clientProperties(Listener.PLAINTEXT));
        props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, Names.unique("tx"));
        this.producer = new KafkaProducer<>(props, new StringSerializer(), new StringSerializer());
        producer.initTransactions();
    }

    /**
     * One transaction of {@code count} records valued {@code <name>-<i>} into {@code partition} (or wherever the
     * partitioner puts them when it is null), committed or aborted.
     */
    public void transaction(String topic, Integer partition, String name, int count, boolean commit) {
        producer.beginTransaction();
        for (int i = 0; i < count; i++) {
            producer.send(new ProducerRecord<>(topic, partition, name, name + "-" + i));
        }
        producer.flush();
        if (commit) {
            producer.commitTransaction();
        } else {
            producer.abortTransaction();
        }
    }

    /**
     * The log end once the last transaction's marker is written: the coordinator writes markers after the producer's
     * abort or commit returns, so until the last stable offset equals the log end, the end can still move.
     */
    public long settledEnd(TopicPartition tp) throws Exception {
        return settledEnd(kafka, tp);
    }

    /** As {@link #settledEnd(TopicPartition)}, for a topic written before. */
    public static long settledEnd(KafkaCluster kafka, TopicPartition tp) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            long stable = kafka.admin().listOffsets(Map.of(tp, OffsetSpec.latest()),
                    new ListOffsetsOptions(IsolationLevel.READ_COMMITTED))
                    .partitionResult(tp).get(30, TimeUnit.SECONDS).offset();
            long end = kafka.admin().listOffsets(Map.of(tp, OffsetSpec.latest()))
                    .partitionResult(tp).get(30, TimeUnit.SECONDS).offset();
            if (stable == end) {
                return end;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("transaction markers still pending after 30 s: stable " + stable + ", end " + end);
            }
            Thread.sleep(20);
        }
    }

    @Override
    public void close() {
        producer.close();
    }
}
