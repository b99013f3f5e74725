package io.sluice.cli;

import io.sluice.core.EngineConfig;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.testkit.Names;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/** Shared bits of the tests that run the engine on a real broker (lag, bounded runs, metrics). */
public final class EngineTestSupport {

    private EngineTestSupport() {
    }

    /** Short session timeouts: a member that leaves is noticed in seconds. */
    private static final Map<String, Object> QUICK_GROUP = Map.of(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, 3_000,
            ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, 500);

    /** An engine config on {@code kafka}'s plain listener with a fresh group. */
    public static EngineConfig.Builder config(KafkaCluster kafka, String topic) {
        return EngineConfig.builder().consumerProperties(kafka.clientProperties(Listener.PLAINTEXT))
                .consumerProperties(QUICK_GROUP).groupId(Names.unique("group")).topics(topic)
                .drainTimeout(Duration.ofSeconds(10));
    }

    /** Produces {@code {"n":i}} for i in [0, count), keyed, acknowledged by all replicas. */
    public static void produceJson(KafkaCluster kafka, String topic, int count) {
        Map<String, Object> props = new HashMap<>(kafka.clientProperties(Listener.PLAINTEXT));
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        try (var producer = new KafkaProducer<>(props, new StringSerializer(), new StringSerializer())) {
            for (int i = 0; i < count; i++) {
                producer.send(new ProducerRecord<>(topic, "k" + i, "{\"n\":" + i + "}"));
            }
            producer.flush();
        }
    }

    public static void await(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after 60 s waiting for " + what);
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }
}
