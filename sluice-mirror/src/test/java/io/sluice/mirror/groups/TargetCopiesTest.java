package io.sluice.mirror.groups;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.mirror.copy.Provenance;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/**
 * A walk asked to start below the target partition's start, which retention or a deletion moved after the start was
 * read: it goes on from the start. A consumer's default would reset it to the end, where it found no copy, and a
 * group was translated past every copy between (a review: a failed-over consumer skipped them).
 */
class TargetCopiesTest {

    private static final String SOURCE_CLUSTER = "source-cluster-id";

    private final KafkaCluster target = SharedKafka.second();

    @Test
    void aWalkFromBelowThePartitionsStartGoesOnFromItsStartNotFromItsEnd() throws Exception {
        String topic = Names.unique("copies-start");
        target.createTopic(topic, 1);
        TopicPartition partition = new TopicPartition(topic, 0);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(
                target.clientProperties(Listener.PLAINTEXT), new ByteArraySerializer(), new ByteArraySerializer())) {
            for (long offset = 0; offset < 20; offset++) {
                ProducerRecord<byte[], byte[]> copy = new ProducerRecord<>(topic, 0, null, new byte[] {1});
                copy.headers().add(new RecordHeader(Provenance.HEADER, Provenance.value(SOURCE_CLUSTER, 100 + offset)));
                producer.send(copy);
            }
            producer.flush();
        }
        target.admin().deleteRecords(Map.of(partition, RecordsToDelete.beforeOffset(10))).all()
                .get(30, TimeUnit.SECONDS);

        try (TargetCopies copies = new TargetCopies(target.clientProperties(Listener.PLAINTEXT), SOURCE_CLUSTER,
                Duration.ofSeconds(30))) {
            assertEquals(10, copies.start(partition));
            assertEquals(Optional.of(new TargetCopies.Copy(10, 110)), copies.walk(partition, 0, 20, copy -> true),
                    "the first copy the target still holds, not none");
            assertEquals(Optional.of(new TargetCopies.Copy(15, 115)),
                    copies.walk(partition, 3, 20, copy -> copy.sourceOffset() >= 115));
            assertEquals(10, copies.count(partition, 0, 20), "the copies still there, as --groups counts them");
            assertEquals(List.of(Optional.empty()), List.of(copies.walk(partition, 20, 20, copy -> true)));
        }
    }
}
