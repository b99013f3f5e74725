package io.sluice.cli.quickstart;

import io.sluice.cli.RunFailure;
import io.sluice.cli.console.Console;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Writes the quick start's events into a topic, acknowledged by the broker (acks=all, idempotent), showing progress.
 *
 * <p>Threading: {@link #produce} runs on the caller's thread; the producer's callbacks only record offsets and the
 * first error.
 */
public final class EventProducer {

    /**
     * @param jsonBytes  the events' size as JSON, before any compression
     * @param endOffsets each partition's end offset after the last event
     */
    public record Result(long events, long jsonBytes, Map<Integer, Long> endOffsets, Duration elapsed) {
    }

    private EventProducer() {
    }

    public static Result produce(Map<String, Object> client, String topic, ClickstreamEvents events, long count,
            Console console) throws RunFailure {
        Map<String, Object> props = new HashMap<>(client);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        props.put(ProducerConfig.LINGER_MS_CONFIG, 10);
        props.put(ProducerConfig.BATCH_SIZE_CONFIG, 512 * 1024);
        props.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        props.put(ProducerConfig.CLIENT_ID_CONFIG, "sluice-quickstart-producer");
        Map<Integer, Long> ends = new ConcurrentHashMap<>();
        AtomicReference<Exception> failure = new AtomicReference<>();
        long start = System.nanoTime();
        long bytes = 0;
        long lastStatus = 0;
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(props, new StringSerializer(),
                new StringSerializer())) {
            for (long i = 0; i < count && failure.get() == null; i++) {
                String json = events.next();
                bytes += json.getBytes(StandardCharsets.UTF_8).length;
                producer.send(new ProducerRecord<>(topic, null, events.timestamp(), events.key(), json), (meta, e) -> {
                    if (e != null) {
                        failure.compareAndSet(null, e);
                    } else {
                        ends.merge(meta.partition(), meta.offset() + 1, Math::max);
                    }
                });
                if (System.nanoTime() - lastStatus > 250_000_000L) {
                    lastStatus = System.nanoTime();
                    console.status(String.format(Locale.ROOT, "producing: %,d of %,d events (%d%%)", i, count,
                            i * 100 / count));
                }
            }
            producer.flush();
        } finally {
            console.clearStatus();
        }
        if (failure.get() != null) {
            throw new RunFailure("the broker did not take the events: " + failure.get().getMessage(), failure.get());
        }
        return new Result(count, bytes, new TreeMap<>(ends), Duration.ofNanos(System.nanoTime() - start));
    }
}
