package io.sluice.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.local.kafka.KafkaCluster;
import io.sluice.testkit.Names;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * A source broker stops answering this process alone (a network fault between the two, a broker that hangs before the
 * controller fences it) while the cluster still lists it as the leader: no partition is without a leader and the
 * cluster answers, so neither watch said anything while its partitions stood still. The engine names the broker
 * ({@link Engine#sourceBrokersUnanswered}, with its partitions, and once in the log), and never a broker it does not
 * read from.
 */
@Tag("slow")
@Execution(ExecutionMode.CONCURRENT) // two cases at a time (junit-platform.properties): each has its own cluster
class SourceBrokerSilenceTest {

    @Test
    void aSourceBrokerThatStopsAnsweringThisProcessAloneIsNamedWhileTheOthersAreRead() throws Exception {
        try (KafkaCluster kafka = KafkaCluster.builder().name("engine-cut-broker").proxied().start()) {
            kafka.admin().listConsumerGroupOffsets("sluice-warm-up").partitionsToOffsetAndMetadata()
                    .get(60, TimeUnit.SECONDS);
            kafka.addBroker(null);
            String topic = Names.unique("cut-broker");
            kafka.createTopic(new NewTopic(topic, Map.of(0, List.of(1), 1, List.of(2))));
            EngineTestSupport.produceNumbers(kafka, topic, 0, 0, 10);
            EngineTestSupport.produceNumbers(kafka, topic, 1, 0, 10);
            Map<String, Integer> seen = new ConcurrentHashMap<>();
            try (Engine engine = Engine.start(EngineTestSupport.config(kafka, topic).build(), new StringDeserializer(),
                    new StringDeserializer(), record -> seen.merge(record.partition() + "/" + record.value(), 1,
                            Integer::sum))) {
                EngineTestSupport.await("both partitions read", Duration.ofSeconds(60), () -> seen.size() == 20);

                // the cluster still sees broker 2 (its own listeners are not behind the proxy): the leader stays
                kafka.node(2).proxy().blackhole();
                EngineTestSupport.await("the silent broker named (after 15 s)", Duration.ofSeconds(60),
                        () -> engine.sourceBrokersUnanswered().containsKey(2));
                assertEquals(Set.of(2), engine.sourceBrokersUnanswered().keySet());
                assertEquals(Map.of(new TopicPartition(topic, 1), 2), engine.partitionsOfUnansweredSourceBrokers());
                assertEquals(Map.of(), engine.partitionsWithoutLeader(), "the partition keeps its leader");
                assertEquals(Optional.empty(), engine.sourceUnreachable(), "the cluster answers");
                EngineTestSupport.produceNumbers(kafka, topic, 0, 10, 10, 1);
                EngineTestSupport.await("the other partition read meanwhile", Duration.ofSeconds(60),
                        () -> seen.size() == 30);

                kafka.node(2).proxy().restore();
                EngineTestSupport.await("the broker answers again", Duration.ofSeconds(60),
                        () -> engine.sourceBrokersUnanswered().isEmpty());
                assertEquals(Map.of(), engine.partitionsOfUnansweredSourceBrokers());
                EngineTestSupport.produceNumbers(kafka, topic, 1, 10, 10);
                EngineTestSupport.await("its records read", Duration.ofSeconds(60), () -> seen.size() == 40,
                        () -> seen.size());
            }
            assertEquals(Set.of(1), Set.copyOf(seen.values()), "each record handled once: " + seen);
        }
    }

    /**
     * A consumer with a rack reads from the follower in its rack (KIP-392), and the leader gets no fetch from it: the
     * leader owes it nothing and must not be said to be silent (the follower is the broker watched).
     */
    @Test
    void aLeaderThatIsNotReadFromBecauseAFollowerServesTheRackIsNotSaidToBeSilent() throws Exception {
        try (KafkaCluster kafka = KafkaCluster.builder().name("engine-rack-read").racks("rack-a")
                .brokerProperty("replica.selector.class", "org.apache.kafka.common.replica.RackAwareReplicaSelector")
                .start()) {
            kafka.admin().listConsumerGroupOffsets("sluice-warm-up").partitionsToOffsetAndMetadata()
                    .get(60, TimeUnit.SECONDS);
            kafka.addBroker("rack-b");
            String topic = Names.unique("rack-read");
            // partition 0 led by broker 1 and read from its follower on broker 2; partition 1 led by broker 2, so
            // that broker 2 answers while broker 1 is asked nothing
            kafka.createTopic(new NewTopic(topic, Map.of(0, List.of(1, 2), 1, List.of(2, 1))));
            EngineTestSupport.produceNumbers(kafka, topic, 0, 0, 10);
            EngineTestSupport.produceNumbers(kafka, topic, 1, 0, 10);
            Map<String, Integer> seen = new ConcurrentHashMap<>();
            try (Engine engine = Engine.start(EngineTestSupport.config(kafka, topic)
                    .consumerProperty(ConsumerConfig.CLIENT_RACK_CONFIG, "rack-b").build(), new StringDeserializer(),
                    new StringDeserializer(), record -> seen.merge(record.partition() + "/" + record.value(), 1,
                            Integer::sum))) {
                EngineTestSupport.await("both partitions read", Duration.ofSeconds(60), () -> seen.size() == 20);
                // longer than the watch's grace: the leader, asked nothing, would be said silent by now
                long until = System.nanoTime() + Duration.ofSeconds(20).toNanos();
                while (System.nanoTime() < until) {
                    assertEquals(Map.of(), engine.sourceBrokersUnanswered());
                    Thread.sleep(200);
                }
                EngineTestSupport.produceNumbers(kafka, topic, 0, 10, 10);
                EngineTestSupport.await("the records written since read", Duration.ofSeconds(60),
                        () -> seen.size() == 30);
            }
        }
    }

}
