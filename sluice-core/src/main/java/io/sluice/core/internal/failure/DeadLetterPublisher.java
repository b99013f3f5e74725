package io.sluice.core.internal.failure;

import io.sluice.core.wire.DeadLetterHeaders;
import io.sluice.producer.DeliverySnapshot;
import io.sluice.producer.DeliveryTally;
import io.sluice.producer.ProducerSettings;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Publishes records that failed every attempt to the dead-letter topic: the original key, value and headers, plus
 * headers that say why ({@code sluice.error.class}, {@code sluice.error.message}) and where from
 * ({@code sluice.source.topic}, {@code .partition}, {@code .offset}, {@code sluice.attempts}).
 *
 * <p>A record is dead-lettered only once the broker acknowledged it with acks=all ({@link ProducerSettings}); a failure
 * to publish (a missing topic, no permission) is thrown to the caller, which stops the engine rather than skip the
 * record. It waits for the brokers up to a retry window ({@code retryFor}: for the topic's metadata, then again for
 * the acknowledgement), so that a broker restart, which the consumer side rides out, does not stop the run either.
 * {@link #deliveries()} counts what was published and what failed, by source topic, partition and offset.
 *
 * <p>Threading: safe for concurrent use (the Kafka producer is).
 */
public final class DeadLetterPublisher implements AutoCloseable {

    private final String topic;
    private final KafkaProducer<byte[], byte[]> producer;
    private final DeliveryTally deliveries = new DeliveryTally();

    /**
     * @param retryFor how long one dead letter may wait for the brokers: for the topic's metadata, then for the
     *                 acknowledgement; at least 15 s, as the request timeout (10 s) must fit in it. Producer
     *                 properties that set {@code max.block.ms} or {@code delivery.timeout.ms} win
     * @throws io.sluice.producer.UnsafeProducerSettingsException if the properties disable retries
     */
    public DeadLetterPublisher(String topic, Map<String, Object> clientProperties, Duration retryFor) {
        this.topic = topic;
        int window = (int) Math.min(Integer.MAX_VALUE, retryFor.toMillis());
        Map<String, Object> props = ProducerSettings.on(clientProperties)
                .setIfAbsent(ProducerConfig.MAX_BLOCK_MS_CONFIG, window)
                .setIfAbsent(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, window)
                .setIfAbsent(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000)
                .set(ProducerConfig.CLIENT_ID_CONFIG, "sluice-dead-letter")
                .build().properties();
        this.producer = new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
    }

    /** Sends and waits for the acknowledgement. */
    public void publish(ConsumerRecord<byte[], byte[]> record, Throwable error, int attempts) throws Exception {
        RecordHeaders headers = new RecordHeaders(record.headers().toArray());
        headers.add(DeadLetterHeaders.ERROR_CLASS, utf8(error.getClass().getName()));
        headers.add(DeadLetterHeaders.ERROR_MESSAGE, utf8(String.valueOf(error.getMessage())));
        headers.add(DeadLetterHeaders.SOURCE_TOPIC, utf8(record.topic()));
        headers.add(DeadLetterHeaders.SOURCE_PARTITION, utf8(Integer.toString(record.partition())));
        headers.add(DeadLetterHeaders.SOURCE_OFFSET, utf8(Long.toString(record.offset())));
        headers.add(DeadLetterHeaders.ATTEMPTS, utf8(Integer.toString(attempts)));
        Callback delivery = deliveries.sent(record.topic() + "-" + record.partition() + "@" + record.offset(),
                size(record.key()) + size(record.value()));
        try {
            producer.send(new ProducerRecord<>(topic, null, record.timestamp(), record.key(), record.value(), headers),
                    delivery).get();
        } catch (RuntimeException e) {
            delivery.onCompletion(null, e); // send itself threw: the callback never will
            throw e;
        } catch (ExecutionException e) {
            throw (e.getCause() instanceof Exception cause) ? cause : e;
        }
    }

    public String topic() {
        return topic;
    }

    /** What was published so far: acknowledged, failed (with the source record's topic-partition@offset), latency. */
    public DeliverySnapshot deliveries() {
        return deliveries.snapshot();
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(10));
    }

    private static int size(byte[] bytes) {
        return bytes == null ? 0 : bytes.length;
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
