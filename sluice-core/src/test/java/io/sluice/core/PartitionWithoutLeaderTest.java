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
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A source partition loses its only broker while the rest of the cluster answers: the source watch hears from the
 * cluster, so the run said nothing while that partition's lag stood still. Now the engine names the partition
 * ({@link Engine#partitionsWithoutLeader}, and once in the log), reads the others meanwhile, and reads it again once
 * it has a leader: every record once. (A broker that stops answering while it keeps its partitions:
 * {@link SourceBrokerSilenceTest}.)
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
            EngineTestSupport.produceNumbers(kafka, topic, 0, 0, 10);
            EngineTestSupport.produceNumbers(kafka, topic, 1, 0, 10);
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
                EngineTestSupport.produceNumbers(kafka, topic, 0, 10, 10);
                EngineTestSupport.await("the other partition read meanwhile", Duration.ofSeconds(60),
                        () -> seen.size() == 30);

                kafka.node(2).start();
                EngineTestSupport.await("the partition has a leader again", Duration.ofSeconds(60),
                        () -> engine.partitionsWithoutLeader().isEmpty());
                EngineTestSupport.produceNumbers(kafka, topic, 1, 10, 10);
                EngineTestSupport.await("its records read", Duration.ofSeconds(60), () -> seen.size() == 40,
                        () -> seen.size());
            }
            // one member that never lost its partitions: nothing was handed over, so nothing was read twice
            assertEquals(Set.of(1), Set.copyOf(seen.values()), "each record handled once: " + seen);
        }
    }

}
