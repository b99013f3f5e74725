package io.sluice.core;

import static io.sluice.core.EngineTestSupport.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import io.sluice.testkit.kafka.TestRecords;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;

/**
 * Virtual threads are an option on JDK 24 and newer only. On the JDK this suite runs on, exactly one of the two
 * behaviours applies, and this test checks that one: refused with an explanation before JDK 24, used from JDK 24 on.
 */
class VirtualThreadsTest {

    @Test
    void virtualWorkersRunBlockingHandlersFromJdk24OnAndAreRefusedWithAReasonBefore() throws Exception {
        if (Runtime.version().feature() < 24) {
            EngineConfig.Builder refused = EngineConfig.builder().bootstrapServers("127.0.0.1:9").groupId("g")
                    .topics("t").virtualThreads(true);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, refused::build);
            assertTrue(e.getMessage().contains("JDK 24"), e.getMessage());
            return;
        }
        KafkaCluster kafka = SharedKafka.cluster();
        String topic = Names.unique("virtual");
        EngineConfig.Builder builder = EngineTestSupport.config(kafka, topic).virtualThreads(true).concurrency(1_000);
        kafka.createTopic(topic, 2);
        TestRecords.produceNumbered(kafka.clientProperties(Listener.PLAINTEXT), topic, 0, 2_000);
        Set<String> done = ConcurrentHashMap.newKeySet();
        Set<Boolean> virtual = ConcurrentHashMap.newKeySet();
        try (Engine engine = Engine.start(builder.build(), new StringDeserializer(), new StringDeserializer(), record -> {
            virtual.add((Boolean) Thread.class.getMethod("isVirtual").invoke(Thread.currentThread()));
            Thread.sleep(5);
            done.add(record.value());
        })) {
            await("every record", Duration.ofSeconds(60), () -> done.size() == 2_000);
        }
        assertEquals(Set.of(true), virtual, "handlers ran on virtual threads");
    }
}
