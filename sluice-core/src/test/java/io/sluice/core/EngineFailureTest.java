package io.sluice.core;

import static io.sluice.core.EngineTestSupport.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.core.wire.DeadLetterHeaders;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import io.sluice.testkit.kafka.TestRecords;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;

class EngineFailureTest {

    private final KafkaCluster kafka = SharedKafka.cluster();

    @Test
    void aPoisonRecordGoesThroughItsRetriesToTheDeadLetterTopicWithTheErrorAndTheRestFlows() throws Exception {
        String topic = Names.unique("poison");
        String dlq = topic + "-dlq";
        kafka.createTopic(topic, 2);
        kafka.createTopic(dlq, 1);
        TestRecords.produceNumbered(kafka.clientProperties(Listener.PLAINTEXT), topic, 0, 2_000);

        Set<String> done = ConcurrentHashMap.newKeySet();
        Map<String, Integer> attempts = new ConcurrentHashMap<>();
        EngineConfig config = EngineTestSupport.config(kafka, topic).maxAttempts(3)
                .backoff(Duration.ofMillis(10), Duration.ofMillis(50)).deadLetterTopic(dlq).build();
        try (Engine engine = Engine.start(config, new StringDeserializer(), new StringDeserializer(), record -> {
            if (record.value().equals("v777")) {
                attempts.merge(record.value(), 1, Integer::sum);
                throw new IllegalStateException("cannot handle " + record.value());
            }
            done.add(record.value());
        })) {
            await("the other records", Duration.ofSeconds(60), () -> done.size() == 1_999);
            await("the dead letter", Duration.ofSeconds(30), () -> deadLetters(dlq).size() == 1);
            assertEquals(Health.RUNNING, engine.health());
        }
        assertEquals(3, attempts.get("v777"));
        ConsumerRecord<byte[], byte[]> dead = deadLetters(dlq).get(0);
        assertEquals("v777", new String(dead.value(), StandardCharsets.UTF_8));
        assertEquals("k777", new String(dead.key(), StandardCharsets.UTF_8));
        assertEquals(IllegalStateException.class.getName(), header(dead, DeadLetterHeaders.ERROR_CLASS));
        assertEquals("cannot handle v777", header(dead, DeadLetterHeaders.ERROR_MESSAGE));
        assertEquals(topic, header(dead, DeadLetterHeaders.SOURCE_TOPIC));
        assertEquals("3", header(dead, DeadLetterHeaders.ATTEMPTS));
        assertTrue(header(dead, DeadLetterHeaders.SOURCE_OFFSET).matches("\\d+"));

        // everything is committed, the poison record included: it is done (dead-lettered)
        Map<TopicPartition, OffsetAndMetadata> committed = EngineTestSupport.committed(kafka, config.groupId());
        EngineTestSupport.endOffsets(kafka, topic, 2).forEach((tp, end) ->
                assertEquals(end, committed.get(tp).offset()));
    }

    @Test
    void aDeadLetterTopicDeletedMidRunFailsTheEngineAndNothingPastThePoisonRecordIsCommitted() throws Exception {
        String topic = Names.unique("poison-no-dlq");
        String dlq = topic + "-dlq";
        kafka.createTopic(topic, 1);
        kafka.createTopic(dlq, 1);
        Map<String, Object> client = kafka.clientProperties(Listener.PLAINTEXT);
        TestRecords.produceNumbered(client, topic, 0, 300);
        Set<String> done = ConcurrentHashMap.newKeySet();
        EngineConfig config = EngineTestSupport.config(kafka, topic).maxAttempts(1).deadLetterTopic(dlq)
                .producerProperty("max.block.ms", 2_000)
                .build();
        Engine engine = Engine.start(config, new StringDeserializer(), new StringDeserializer(), record -> {
            if (record.value().equals("v300")) {
                throw new IllegalStateException("poison");
            }
            done.add(record.value());
        });
        await("the first records", Duration.ofSeconds(30), () -> done.size() == 300);
        kafka.admin().deleteTopics(List.of(dlq)).all().get(30, TimeUnit.SECONDS);
        TestRecords.produceNumbered(client, topic, 300, 200); // v300 is the poison record, at offset 300

        assertTrue(engine.awaitTermination(Duration.ofSeconds(60)), "the engine stops by itself");
        assertEquals(Health.FAILED, engine.health());
        String message = engine.failure().orElseThrow().getMessage();
        assertTrue(message.contains("dead-letter topic '" + dlq + "'") && message.contains("offset 300"), message);
        OffsetAndMetadata committed = EngineTestSupport.committed(kafka, config.groupId())
                .get(new TopicPartition(topic, 0));
        assertEquals(300, committed.offset(), "committed up to the poison record, not past it");
    }

    @Test
    void aHandlerThatBlocksForeverTimesOutAndTheEngineKeepsGoing() throws Exception {
        String topic = Names.unique("blocking");
        kafka.createTopic(topic, 1);
        TestRecords.produceNumbered(kafka.clientProperties(Listener.PLAINTEXT), topic, 0, 200);
        Set<String> done = ConcurrentHashMap.newKeySet();
        CountDownLatch never = new CountDownLatch(1);
        EngineConfig config = EngineTestSupport.config(kafka, topic).concurrency(4).maxAttempts(1)
                .processingTimeout(Duration.ofMillis(500)).failureOutcome(FailureOutcome.SKIP).build();
        try (Engine engine = Engine.start(config, new StringDeserializer(), new StringDeserializer(), record -> {
            if (record.value().equals("v50")) {
                // ignores interrupts, as badly behaved code does
                while (true) {
                    try {
                        never.await();
                    } catch (InterruptedException ignored) {
                        // keep blocking
                    }
                }
            }
            done.add(record.value());
        })) {
            await("all records but the blocked one", Duration.ofSeconds(30), () -> done.size() == 199);
            assertFalse(done.contains("v50"));
            assertEquals(Health.RUNNING, engine.health());
            await("the watermark passes the skipped record", Duration.ofSeconds(10), () -> {
                try {
                    OffsetAndMetadata c = EngineTestSupport.committed(kafka, config.groupId())
                            .get(new TopicPartition(topic, 0));
                    return c != null && c.offset() == 200;
                } catch (Exception e) {
                    return false;
                }
            });
        }
    }

    private List<ConsumerRecord<byte[], byte[]>> deadLetters(String dlq) {
        return TestRecords.readAll(kafka.clientProperties(Listener.PLAINTEXT), dlq, Duration.ofSeconds(10));
    }

    private static String header(ConsumerRecord<byte[], byte[]> record, String key) {
        return new String(record.headers().lastHeader(key).value(), StandardCharsets.UTF_8);
    }
}
