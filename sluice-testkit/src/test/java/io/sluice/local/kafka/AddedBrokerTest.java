package io.sluice.local.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.testkit.Names;
import io.sluice.testkit.kafka.TestRecords;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.Node;
import org.junit.jupiter.api.Test;

/** A broker-only node joins a running cluster, with its rack, and serves partitions placed on it. */
class AddedBrokerTest {

    @Test
    void aBrokerAddedAfterStartJoinsWithItsRackAndServes() throws Exception {
        try (KafkaCluster kafka = KafkaCluster.builder().name("grown").racks("rack-a").start()) {
            KafkaNode added = kafka.addBroker("rack-b");
            assertEquals(2, added.id());
            Map<Integer, String> racks = kafka.admin().describeCluster().nodes().get(30, TimeUnit.SECONDS).stream()
                    .collect(Collectors.toMap(Node::id, Node::rack));
            assertEquals(Map.of(1, "rack-a", 2, "rack-b"), racks);

            String topic = Names.unique("on-the-added-broker");
            kafka.createTopic(new NewTopic(topic, Map.of(0, List.of(2))));
            TestRecords.produceNumbered(kafka.clientProperties(Listener.PLAINTEXT), topic, 0, 100);
            assertEquals(100, TestRecords.readAll(kafka.clientProperties(Listener.PLAINTEXT), topic,
                    Duration.ofSeconds(30)).size());
            assertEquals(List.of(1, 2), kafka.nodes().stream().map(KafkaNode::id).toList());
        }
    }
}
