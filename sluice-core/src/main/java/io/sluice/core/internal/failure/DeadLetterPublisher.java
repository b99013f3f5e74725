package io.sluice.core.internal.failure;

import io.sluice.producer.DeliverySnapshot;
import io.sluice.producer.DeliveryTally;
import io.sluice.producer.ProducerSettings;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Publishes records that failed every attempt to the dead-letter topic at once ({@link DeadLetterRecord}). Used when
 * the run is at least once, or the dead-letter topic is not in the source cluster: a crash between the publish and
 * the commit of the record's offset makes the restart process the record again and publish its dead letter again.
 *
 * <p>A record is dead-lettered only once the broker acknowledged it with acks=all ({@link ProducerSettings}); a failure
 * to publish (a missing topic, no permission) is thrown to the caller, which stops the engine rather than skip the
 * record. It waits for the brokers up to a retry window ({@code retryFor}: for the topic's metadata, then again for
 * the acknowledgement), so that a broker restart, which the consumer side rides out, does not stop the run either.
 * {@link #deliveries()} counts what was published and what failed, by source topic, partition and offset.
 *
 * <p>Threading: safe for concurrent use (the Kafka producer is).
 */
public final class DeadLetterPublisher implements DeadLetters, AutoCloseable {

    private final String topic;
    private final String group;
    /** The consumed topics' IDs, which each letter names. */
    private final Function<String, Uuid> topicIds;
    private final KafkaProducer<byte[], byte[]> producer;
    private final DeliveryTally deliveries = new DeliveryTally();

    /**
     * @param group    the engine's consumer group, which each letter names ({@link DeadLetterRecord})
     * @param retryFor how long one dead letter may wait for the brokers: for the topic's metadata, then for the
     *                 acknowledgement; at least 15 s, as the request timeout (10 s) must fit in it. Producer
     *                 properties that set {@code max.block.ms} or {@code delivery.timeout.ms} win
     * @throws io.sluice.producer.UnsafeProducerSettingsException if the properties disable retries
     */
    public DeadLetterPublisher(String topic, String group, Function<String, Uuid> topicIds,
            Map<String, Object> clientProperties, Duration retryFor) {
        this.topic = topic;
        this.group = group;
        this.topicIds = topicIds;
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
    @Override
    public void deadLetter(ConsumerRecord<byte[], byte[]> record, Throwable error, int attempts) throws Exception {
        Callback delivery = deliveries.sent(record.topic() + "-" + record.partition() + "@" + record.offset(),
                size(record.key()) + size(record.value()));
        try {
            producer.send(DeadLetterRecord.of(topic, group, topicIds, record, error, attempts), delivery).get();
        } catch (RuntimeException e) {
            delivery.onCompletion(null, e); // send itself threw: the callback never will
            throw e;
        } catch (ExecutionException e) {
            throw (e.getCause() instanceof Exception cause) ? cause : e;
        }
    }

    @Override
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
}
