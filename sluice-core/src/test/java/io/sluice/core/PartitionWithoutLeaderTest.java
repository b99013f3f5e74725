package io.sluice.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.testkit.Names;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A source partition loses its only broker while the rest of the cluster answers: the source watch hears from the
 * cluster, so the run said nothing while that partition's lag stood still. Now the engine names the partition
 * ({@link Engine#partitionsWithoutLeader}, and once in the log), reads the others meanwhile, and reads it again once
 * it has a leader: every record once. The same for a broker that stops answering this process alone while the
 * cluster still lists it as the leader ({@link Engine#sourceBrokersUnanswered}).
 */
@Tag("slow")
class PartitionWithoutLeaderTest {

    @Test
    void aSourcePartitionWithoutALeaderIsNamedWhileTheOthersAreRead() throws Exception {
        try (KafkaCluster kafka = KafkaCluster.builder().name("engine-leaders").start()) {
            // the group's coordinator on the broker that stays: its offsets topic is made before the second joins
            kafka.admin().listConsumerGroupOffsets("sluice-warm-up").partitionsToOffsetAndMetadata()
                    .get(60, TimeUnit.SECONDS);
            kafka.addBroker(null);
            String topic = Names.unique("leaders");
            kafka.createTopic(new NewTopic(topic, Map.of(0, List.of(1), 1, List.of(2))));
            TopicPartition onStopped = new TopicPartition(topic, 1);
            produce(kafka, topic, 0, 0, 10);
            produce(kafka, topic, 1, 0, 10);
            Map<String, Integer> seen = new ConcurrentHashMap<>(); // each record's times handled
            try (Engine engine = Engine.start(EngineTestSupport.config(kafka, topic).build(), new StringDeserializer(),
                    new StringDeserializer(), record -> seen.merge(record.partition() + "/" + record.value(), 1,
                            Integer::sum))) {
                EngineTestSupport.await("both partitions read", Duration.ofSeconds(60), () -> seen.size() == 20);

                kafka.node(2).stop();
                EngineTestSupport.await("the partition without a leader named (after 15 s)", Duration.ofSeconds(60),
                        () -> engine.partitionsWithoutLeader().containsKey(onStopped));
                assertEquals(Set.of(onStopped), engine.partitionsWithoutLeader().keySet());
                assertEquals(Optional.empty(), engine.sourceUnreachable(), "the cluster answers");
                produce(kafka, topic, 0, 10, 10);
                EngineTestSupport.await("the other partition read meanwhile", Duration.ofSeconds(60),
                        () -> seen.size() == 30);

                kafka.node(2).start();
                EngineTestSupport.await("the partition has a leader again", Duration.ofSeconds(60),
                        () -> engine.partitionsWithoutLeader().isEmpty());
                produce(kafka, topic, 1, 10, 10);
                EngineTestSupport.await("its records read", Duration.ofSeconds(60), () -> seen.size() == 40,
                        () -> seen.size());
            }
            // one member that never lost its partitions: nothing was handed over, so nothing was read twice
            assertEquals(Set.of(1), Set.copyOf(seen.values()), "each record handled once: " + seen);
        }
    }

    @Test
    void aSourceBrokerThatStopsAnsweringThisProcessAloneIsNamedWhileTheOthersAreRead() throws Exception {
        try (KafkaCluster kafka = KafkaCluster.builder().name("engine-cut-broker").proxied().start()) {
            kafka.admin().listConsumerGroupOffsets("sluice-warm-up").partitionsToOffsetAndMetadata()
                    .get(60, TimeUnit.SECONDS);
            kafka.addBroker(null);
            String topic = Names.unique("cut-broker");
            kafka.createTopic(new NewTopic(topic, Map.of(0, List.of(1), 1, List.of(2))));
            produce(kafka, topic, 0, 0, 10);
            produce(kafka, topic, 1, 0, 10);
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
                produce(kafka, topic, 0, 10, 10, 1);
                EngineTestSupport.await("the other partition read meanwhile", Duration.ofSeconds(60),
                        () -> seen.size() == 30);

                kafka.node(2).proxy().restore();
                EngineTestSupport.await("the broker answers again", Duration.ofSeconds(60),
                        () -> engine.sourceBrokersUnanswered().isEmpty());
                assertEquals(Map.of(), engine.partitionsOfUnansweredSourceBrokers());
                produce(kafka, topic, 1, 10, 10);
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
            produce(kafka, topic, 0, 0, 10);
            produce(kafka, topic, 1, 0, 10);
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
                produce(kafka, topic, 0, 10, 10);
                EngineTestSupport.await("the records written since read", Duration.ofSeconds(60),
                        () -> seen.size() == 30);
            }
        }
    }

    /** Writes values {@code from} to {@code from + count - 1} to one partition. */
    private static void produce(KafkaCluster kafka, String topic, int partition, int from, int count) {
        produce(kafka, topic, partition, from, count, 0);
    }

    /**
     * As above, bootstrapped by broker {@code through} alone when it is not 0: a producer that asked a black-holed
     * broker for the cluster's metadata first would wait out its request timeout.
     */
    private static void produce(KafkaCluster kafka, String topic, int partition, int from, int count, int through) {
        Map<String, Object> props = new HashMap<>(kafka.clientProperties(Listener.PLAINTEXT));
        if (through != 0) {
            props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + kafka.node(through).proxy().port());
        }
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(props, new StringSerializer(),
                new StringSerializer())) {
            for (int i = from; i < from + count; i++) {
                producer.send(new ProducerRecord<>(topic, partition, null, Integer.toString(i)));
            }
        }
    }
}
