package io.sluice.core;

import static io.sluice.core.EngineTestSupport.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;

class EngineOrderingTest {

    @Test
    void perKeyOrderHoldsUnder64WayConcurrencyOverFourPartitionsAndTenThousandKeys() throws Exception {
        KafkaCluster kafka = SharedKafka.cluster();
        String topic = Names.unique("key-order");
        kafka.createTopic(topic, 4);
        int count = 60_000;
        // keys k0..k9999 each appear six times, in increasing sequence numbers
        produceKeyed(kafka, topic, count, 10_000);

        Map<String, Long> lastPerKey = new ConcurrentHashMap<>();
        List<String> violations = new CopyOnWriteArrayList<>();
        AtomicInteger running = new AtomicInteger();
        AtomicInteger maxRunning = new AtomicInteger();
        LongAdder processed = new LongAdder();
        EngineConfig config = EngineTestSupport.config(kafka, topic).concurrency(64).ordering(Ordering.KEY).build();
        try (Engine engine = Engine.start(config, new StringDeserializer(), new StringDeserializer(), record -> {
            int now = running.incrementAndGet();
            maxRunning.accumulateAndGet(now, Math::max);
            long sequence = Long.parseLong(record.value());
            Long previous = lastPerKey.put(record.key(), sequence);
            if (previous != null && previous >= sequence) {
                violations.add(record.key() + ": " + sequence + " after " + previous);
            }
            if (sequence % 100 == 0) {
                Thread.sleep(1); // some records take a while, so lanes overlap
            }
            running.decrementAndGet();
            processed.increment();
        })) {
            await("all records processed", Duration.ofSeconds(90), () -> processed.sum() >= count);
        }
        assertTrue(violations.isEmpty(), "per-key order violated: " + violations.subList(0, Math.min(10, violations.size())));
        assertEquals(count, processed.sum(), "each record once in a run without failures");
        assertEquals(10_000, lastPerKey.size());
        assertTrue(maxRunning.get() > 1, "records ran in parallel (max " + maxRunning.get() + ")");

        Map<TopicPartition, OffsetAndMetadata> committed = EngineTestSupport.committed(kafka, config.groupId());
        Map<TopicPartition, Long> end = EngineTestSupport.endOffsets(kafka, topic, 4);
        end.forEach((tp, offset) -> assertEquals(offset, committed.get(tp).offset(), "close commits everything of " + tp));
    }

    static void produceKeyed(KafkaCluster kafka, String topic, int count, int keys) {
        Map<String, Object> props = new java.util.HashMap<>(kafka.clientProperties(Listener.PLAINTEXT));
        props.put("linger.ms", 5);
        try (var producer = new org.apache.kafka.clients.producer.KafkaProducer<String, String>(props,
                new org.apache.kafka.common.serialization.StringSerializer(),
                new org.apache.kafka.common.serialization.StringSerializer())) {
            for (int i = 0; i < count; i++) {
                producer.send(new org.apache.kafka.clients.producer.ProducerRecord<>(topic, "k" + (i % keys),
                        Integer.toString(i)));
            }
            producer.flush();
        }
    }

}
