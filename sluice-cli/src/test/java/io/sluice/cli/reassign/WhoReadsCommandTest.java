package io.sluice.cli.reassign;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cli.Cli;
import io.sluice.cli.ExitStatus;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;

/** {@code sluice reassign who-reads} names the readers to warn, and only those, of topics that exist. */
class WhoReadsCommandTest {

    private final KafkaCluster kafka = SharedKafka.cluster();

    /** "no consumer group has committed offsets" was said of a misspelt topic too. */
    @Test
    void aTopicThatDoesNotExistIsSaidToBeMissing() {
        String topic = Names.unique("who-reads-nothing");
        Cli.Result result = Cli.run("reassign", "who-reads", "-b", kafka.bootstrapServers(), "-t", topic);
        assertEquals(ExitStatus.FAILURE, result.status(), result.err());
        assertTrue(result.err().contains("topic " + topic + " does not exist in the cluster, or this client may not describe it"), result.err());
        assertFalse(result.out().contains("no consumer group"), result.out());
    }

    /** An exactly-once produce keeps its position as its own group's offsets on the topic it writes: not a reader. */
    @Test
    void anImportsPositionGroupIsNotListedAsAReader() throws Exception {
        String topic = Names.unique("who-reads-import");
        kafka.createTopic(topic, 1);
        TopicPartition p0 = new TopicPartition(topic, 0);
        String reader = Names.unique("billing");
        kafka.admin().alterConsumerGroupOffsets(reader, Map.of(p0, new OffsetAndMetadata(0))).all()
                .get(30, TimeUnit.SECONDS);
        kafka.admin().alterConsumerGroupOffsets("sluice-produce." + topic, Map.of(p0, new OffsetAndMetadata(0,
                "sluice-produce1|x"))).all().get(30, TimeUnit.SECONDS);

        Cli.Result result = Cli.run("reassign", "who-reads", "-b", kafka.bootstrapServers(), "-t", topic);
        assertEquals(ExitStatus.OK, result.status(), result.err());
        assertTrue(result.out().contains(topic + "  group " + reader), result.out());
        assertFalse(result.out().contains("sluice-produce."), result.out());
        assertTrue(result.err().contains("not shown: 1 group (sluice-produce.*) where an exactly-once `sluice "
                + "produce` keeps its import's position"), result.err());
    }

    /** A member's host reads as the address, not as the coordinator's "/127.0.0.1". */
    @Test
    void aMembersHostIsItsAddress() throws Exception {
        String topic = Names.unique("who-reads-member");
        kafka.createTopic(topic, 1);
        String group = Names.unique("live");
        Map<String, Object> props = new java.util.HashMap<>(kafka.clientProperties(Listener.PLAINTEXT));
        props.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, "billing-app-1");
        try (var consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.subscribe(java.util.List.of(topic));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (consumer.assignment().isEmpty()) {
                assertTrue(System.nanoTime() < deadline, "the consumer joined its group");
                consumer.poll(java.time.Duration.ofMillis(100));
            }
            // who-reads lists the groups with offsets on the topics
            consumer.commitSync(Map.of(new TopicPartition(topic, 0), new OffsetAndMetadata(0)));
            Cli.Result result = Cli.run("reassign", "who-reads", "-b", kafka.bootstrapServers(), "-t", topic);
            assertEquals(ExitStatus.OK, result.status(), result.err());
            assertTrue(result.out().contains("billing-app-1@127.0.0.1"), result.out());
            assertFalse(result.out().contains("@/"), result.out());
        }
    }
}
