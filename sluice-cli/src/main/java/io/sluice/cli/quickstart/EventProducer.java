package io.sluice.cli.quickstart;

import io.sluice.cli.RunFailure;
import io.sluice.cli.console.Console;
import io.sluice.producer.DeliveryFailure;
import io.sluice.producer.DeliveryTally;
import io.sluice.producer.ProducerSettings;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Writes the quick start's events into a topic, acknowledged by the broker ({@link ProducerSettings}: acks=all,
 * idempotent), showing progress; it stops at the first event the broker did not take.
 *
 * <p>Threading: {@link #produce} runs on the caller's thread; the producer's callbacks only record offsets and the
 * tally.
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
        Map<String, Object> props = ProducerSettings.on(client)
                .set(ProducerConfig.LINGER_MS_CONFIG, 10)
                .set(ProducerConfig.BATCH_SIZE_CONFIG, 512 * 1024)
                .set(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4")
                .set(ProducerConfig.CLIENT_ID_CONFIG, "sluice-quickstart-producer")
                .build().properties();
        Map<Integer, Long> ends = new ConcurrentHashMap<>();
        DeliveryTally tally = new DeliveryTally(1);
        Callback endOffsets = (meta, e) -> {
            if (e == null) {
                ends.merge(meta.partition(), meta.offset() + 1, Math::max);
            }
        };
        long start = System.nanoTime();
        long lastStatus = 0;
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(props, new StringSerializer(),
                new StringSerializer())) {
            for (long i = 0; i < count && tally.firstFailure().isEmpty(); i++) {
                String json = events.next();
                Callback delivery = tally.sent("event " + i, json.getBytes(StandardCharsets.UTF_8).length, endOffsets);
                try {
                    producer.send(new ProducerRecord<>(topic, null, events.timestamp(), events.key(), json), delivery);
                } catch (KafkaException e) {
                    delivery.onCompletion(null, e);
                }
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
        Optional<DeliveryFailure> failure = tally.firstFailure();
        if (failure.isPresent()) {
            throw new RunFailure("the broker did not take the events: " + failure.get().error().getMessage(),
                    failure.get().error());
        }
        return new Result(count, tally.snapshot().bytesSent(), new TreeMap<>(ends),
                Duration.ofNanos(System.nanoTime() - start));
    }
}
