package io.sluice.core;

import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.testkit.Names;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;

/** Shared bits of the engine's integration tests. */
final class EngineTestSupport {

    private EngineTestSupport() {
    }

    /** An engine config on {@code kafka} with a fresh group and short session timeouts. */
    static EngineConfig.Builder config(KafkaCluster kafka, String topic) {
        return EngineConfig.builder()
                .consumerProperties(kafka.clientProperties(Listener.PLAINTEXT))
                .groupId(Names.unique("group"))
                .consumerProperty(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, 3_000)
                .consumerProperty(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, 500)
                .topics(topic)
                .drainTimeout(Duration.ofSeconds(10));
    }

    static void await(String what, Duration timeout, BooleanSupplier condition) {
        await(what, timeout, condition, () -> "");
    }

    /** Waits for {@code condition}; on time-out the message includes {@code state}, to show how far it got. */
    static void await(String what, Duration timeout, BooleanSupplier condition, java.util.function.Supplier<?> state) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout + " waiting for " + what + " " + state.get());
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }

    /** Runs an engine that counts records until it has seen {@code count}, then closes it; returns the count. */
    static int processUntil(EngineConfig config, int count) {
        java.util.concurrent.atomic.AtomicInteger seen = new java.util.concurrent.atomic.AtomicInteger();
        try (Engine engine = Engine.start(config, new org.apache.kafka.common.serialization.StringDeserializer(),
                new org.apache.kafka.common.serialization.StringDeserializer(), record -> seen.incrementAndGet())) {
            await(count + " records", Duration.ofSeconds(60), () -> seen.get() >= count, () -> "(" + seen.get() + ")");
        }
        return seen.get();
    }

    /**
     * Starts an engine that counts its records into {@code processed}, expects it to stop by itself as FAILED, and
     * returns the failure's message.
     */
    static String failureMessage(EngineConfig config, java.util.concurrent.atomic.AtomicInteger processed) {
        Engine engine = Engine.start(config, new org.apache.kafka.common.serialization.StringDeserializer(),
                new org.apache.kafka.common.serialization.StringDeserializer(), record -> processed.incrementAndGet());
        if (!engine.awaitTermination(Duration.ofSeconds(60))) {
            engine.close();
            throw new AssertionError("the engine did not stop by itself within 60 s: " + engine.health());
        }
        if (engine.health() != Health.FAILED) {
            throw new AssertionError("expected FAILED, not " + engine.health());
        }
        return engine.failure().orElseThrow().getMessage();
    }

    static Map<TopicPartition, OffsetAndMetadata> committed(KafkaCluster kafka, String group) throws Exception {
        return kafka.admin().listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS);
    }

    static Map<TopicPartition, Long> endOffsets(KafkaCluster kafka, String topic, int partitions) throws Exception {
        Set<TopicPartition> tps = java.util.stream.IntStream.range(0, partitions)
                .mapToObj(p -> new TopicPartition(topic, p)).collect(Collectors.toSet());
        return kafka.admin().listOffsets(tps.stream().collect(Collectors.toMap(tp -> tp,
                        tp -> org.apache.kafka.clients.admin.OffsetSpec.latest())))
                .all().get(30, TimeUnit.SECONDS).entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().offset()));
    }

    /** Writes values {@code from} to {@code from + count - 1} to one partition. */
    static void produceNumbers(KafkaCluster kafka, String topic, int partition, int from, int count) {
        produceNumbers(kafka, topic, partition, from, count, 0);
    }

    /**
     * As above, bootstrapped by broker {@code through} alone when it is not 0: a producer that asked a black-holed
     * broker for the cluster's metadata first would wait out its request timeout.
     */
    static void produceNumbers(KafkaCluster kafka, String topic, int partition, int from, int count, int through) {
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
