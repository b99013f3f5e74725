package io.sluice.local.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.testkit.Names;
import io.sluice.testkit.kafka.TestRecords;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.TopicDescription;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("slow")
class ThreeNodeClusterTest {

    @Test
    void acknowledgedWritesSurviveTheLossOfAnyOneBroker() throws Exception {
        try (KafkaCluster kafka = KafkaCluster.builder().name("trio").nodes(3).start()) {
            String topic = Names.unique("replicated");
            kafka.createTopic(topic, 3);
            TopicDescription description = kafka.admin().describeTopics(Set.of(topic)).allTopicNames()
                    .get(30, TimeUnit.SECONDS).get(topic);
            description.partitions().forEach(p -> assertEquals(3, p.replicas().size(), "replication factor 3"));
            String minIsr = kafka.admin().describeConfigs(Set.of(new org.apache.kafka.common.config.ConfigResource(
                    org.apache.kafka.common.config.ConfigResource.Type.TOPIC, topic))).all().get(30, TimeUnit.SECONDS)
                    .values().iterator().next().get("min.insync.replicas").value();
            assertEquals("2", minIsr);

            Map<String, Object> client = kafka.clientProperties(Listener.PLAINTEXT);
            TestRecords.produceNumbered(client, topic, 0, 5_000);
            kafka.node(2).kill();
            // acks=all still succeeds with two of three replicas in sync
            TestRecords.produceNumbered(client, topic, 5_000, 5_000);

            Set<String> read = new HashSet<>(TestRecords.values(TestRecords.readAll(client, topic, Duration.ofSeconds(60))));
            assertEquals(10_000, read.size());
            kafka.node(2).start();
            assertEquals(Set.of(1, 2, 3), kafka.runningNodes());
            assertEquals(new HashSet<>(read), new HashSet<>(TestRecords.values(
                    TestRecords.readAll(client, topic, Duration.ofSeconds(60)))));
        }
    }
}
