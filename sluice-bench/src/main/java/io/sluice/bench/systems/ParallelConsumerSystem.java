package io.sluice.bench.systems;

import io.confluent.parallelconsumer.ParallelConsumerOptions;
import io.confluent.parallelconsumer.ParallelStreamProcessor;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/** Confluent's Parallel Consumer 0.5.3.3, KEY ordering, with the scenario's concurrency. */
final class ParallelConsumerSystem {

    private ParallelConsumerSystem() {
    }

    static void run(String bootstrap, String topic, int concurrency, SystemMain.Handler handler, Measurement m)
            throws Exception {
        Map<String, Object> props = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.GROUP_ID_CONFIG, SystemMain.group("pc"),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        var consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        var options = ParallelConsumerOptions.<byte[], byte[]>builder()
                .consumer(consumer)
                .ordering(ParallelConsumerOptions.ProcessingOrder.KEY)
                .maxConcurrency(concurrency)
                .commitMode(ParallelConsumerOptions.CommitMode.PERIODIC_CONSUMER_ASYNCHRONOUS)
                .build();
        ParallelStreamProcessor<byte[], byte[]> pc = ParallelStreamProcessor.createEosStreamProcessor(options);
        pc.subscribe(List.of(topic));
        pc.poll(context -> {
            try {
                for (var record : context.getConsumerRecordsFlattened()) {
                    handler.handle(record.value());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        });
        try {
            m.awaitDone(30 * 60_000);
        } finally {
            pc.closeDontDrainFirst();
        }
    }
}
