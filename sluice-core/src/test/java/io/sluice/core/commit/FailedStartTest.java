package io.sluice.core.commit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.core.Engine;
import io.sluice.core.EngineConfig;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import java.lang.management.ManagementFactory;
import java.util.Set;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;

/**
 * A start the engine refuses after it made its clients leaves none of them open: the consumer, the admin client and
 * the commit point it made (here a target's transactions, whose client reads the progress) are closed again. Each
 * Kafka client registers an {@code app-info} MBean when made and removes it when closed, which is what is counted.
 */
class FailedStartTest {

    private final KafkaCluster kafka = SharedKafka.cluster();

    @Test
    void aStartRefusedAfterItsClientsWereMadeClosesThemAndTheCommitPoint() throws Exception {
        String topic = Names.unique("refused");
        String consumerId = Names.unique("refused-consumer");
        String progressGroup = Names.unique("refused-progress");
        Set<ObjectName> adminsBefore = mbeans("kafka.admin.client:type=app-info,*");
        EngineConfig config = EngineConfig.builder()
                .consumerProperties(kafka.clientProperties(Listener.PLAINTEXT))
                .consumerProperty(ConsumerConfig.CLIENT_ID_CONFIG, consumerId)
                .groupId(Names.unique("refused"))
                .topics(topic)
                .commitPoint(group -> CopiedTopics.transactions(kafka.bootstrapServers(), progressGroup + "-tx",
                        progressGroup, topic + "-copy"))
                .build();

        // a commit point that commits in a sink's lanes cannot serve a handler: refused once everything is made
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> Engine.start(config,
                new ByteArrayDeserializer(), new ByteArrayDeserializer(), record -> { }));
        assertTrue(refused.getMessage().contains("start a sink"), refused.getMessage());

        assertEquals(Set.of(), mbeans("kafka.consumer:type=app-info,id=" + consumerId), "the engine's consumer");
        assertEquals(Set.of(), mbeans("kafka.consumer:type=app-info,id=*" + progressGroup + "*"),
                "the commit point's progress reader");
        // none made since is left; one closing from an earlier test may be gone by now
        Set<ObjectName> adminsLeft = mbeans("kafka.admin.client:type=app-info,*");
        assertTrue(adminsBefore.containsAll(adminsLeft), () -> "the engine's admin client left open: " + adminsLeft);
    }

    private static Set<ObjectName> mbeans(String pattern) throws MalformedObjectNameException {
        return ManagementFactory.getPlatformMBeanServer().queryNames(new ObjectName(pattern), null);
    }
}
