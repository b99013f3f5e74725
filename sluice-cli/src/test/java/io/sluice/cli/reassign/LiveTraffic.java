package io.sluice.cli.reassign;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * A producer (idempotent, acks=all) and a consumer group member (read_committed) working on one topic while its
 * partitions move: what was acknowledged, what failed, and how many records the member has read.
 *
 * <p>Threading: each client runs on a thread of its own; the counters are safe to read from any thread.
 */
final class LiveTraffic implements AutoCloseable {

    private final Set<String> acknowledged = ConcurrentHashMap.newKeySet();
    private final AtomicReference<Exception> failure = new AtomicReference<>();
    private final AtomicLong consumed = new AtomicLong();
    private volatile boolean producing = true;
    private volatile boolean consuming = true;
    private final Thread producer;
    private final Thread consumer;

    LiveTraffic(Map<String, Object> client, String topic, String group, String clientId) {
        producer = new Thread(() -> produce(client, topic), "live-producer");
        consumer = new Thread(() -> consume(client, topic, group, clientId), "live-consumer");
        producer.start();
        consumer.start();
    }

    private void produce(Map<String, Object> client, String topic) {
        Map<String, Object> props = new HashMap<>(client);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        props.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 120_000);
        try (var p = new KafkaProducer<>(props, new StringSerializer(), new StringSerializer())) {
            for (long i = 0; producing; i++) {
                String value = "live-" + i;
                p.send(new ProducerRecord<>(topic, "k" + i, value), (metadata, e) -> {
                    if (e == null) {
                        acknowledged.add(value);
                    } else {
                        failure.compareAndSet(null, e);
                    }
                });
                if (i % 20 == 0) {
                    Thread.sleep(50); // about 400 records a second: traffic, not a load test beside 4 brokers on 2 cores
                }
            }
            p.flush();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            failure.compareAndSet(null, e);
        }
    }

    private void consume(Map<String, Object> client, String topic, String group, String clientId) {
        Map<String, Object> props = new HashMap<>(client);
        props.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.AUTO_COMMIT_INTERVAL_MS_CONFIG, 200);
        try (var c = new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer())) {
            c.subscribe(List.of(topic));
            while (consuming) {
                consumed.addAndGet(c.poll(Duration.ofMillis(100)).count());
            }
        } catch (RuntimeException e) {
            failure.compareAndSet(null, e);
        }
    }

    long consumed() {
        return consumed.get();
    }

    /** Stops producing and waits until every send is answered. */
    Set<String> stopProducing() throws InterruptedException {
        producing = false;
        producer.join(150_000);
        return Set.copyOf(acknowledged);
    }

    Exception failure() {
        return failure.get();
    }

    @Override
    public void close() throws InterruptedException {
        producing = false;
        consuming = false;
        producer.join(150_000);
        consumer.join(30_000);
    }
}
