package io.sluice.bench;

import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.testkit.Names;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Makes a fresh cluster's internal topics exist, as they do on any cluster in use: the group coordinator's
 * {@code __consumer_offsets} and the transaction coordinator's {@code __transaction_state} are created (50 partitions
 * each) by the first client that needs them, which takes seconds on a fresh broker. Without this, the first copier to
 * use groups or transactions on a fresh pair of clusters would pay for it in its time to the first record, and one
 * that uses neither would not.
 *
 * <p>Stateless.
 */
final class InternalTopics {

    private InternalTopics() {
    }

    /** One transaction with a record and a group's offset: creates both internal topics. */
    static void create(KafkaCluster cluster) {
        String topic = Names.unique("internal-topics");
        cluster.createTopic(topic, 1);
        Map<String, Object> props = new HashMap<>(cluster.clientProperties(Listener.PLAINTEXT));
        props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, topic);
        try (var producer = new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>(topic, new byte[1]));
            producer.sendOffsetsToTransaction(Map.of(new TopicPartition(topic, 0), new OffsetAndMetadata(1)),
                    new ConsumerGroupMetadata(topic));
            producer.commitTransaction();
        }
    }
}
