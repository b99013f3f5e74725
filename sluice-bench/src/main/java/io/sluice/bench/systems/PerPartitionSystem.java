package io.sluice.bench.systems;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * What Kafka Connect can do: one task (thread, consumer) per partition, each handling its records one at a time.
 */
final class PerPartitionSystem {

    private PerPartitionSystem() {
    }

    static void run(String bootstrap, String topic, int partitions, SystemMain.Handler handler, Measurement m)
            throws Exception {
        List<Thread> tasks = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            TopicPartition tp = new TopicPartition(topic, p);
            Thread t = new Thread(() -> {
                Map<String, Object> props = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
                try (var consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
                    consumer.assign(List.of(tp));
                    consumer.seekToBeginning(List.of(tp));
                    while (!m.done()) {
                        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(100))) {
                            if (m.done()) {
                                break;
                            }
                            handler.handle(r.value());
                        }
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "task-" + p);
            tasks.add(t);
            t.start();
        }
        for (Thread t : tasks) {
            t.join();
        }
    }
}
