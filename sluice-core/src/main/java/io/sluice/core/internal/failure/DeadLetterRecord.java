package io.sluice.core.internal.failure;

import io.sluice.core.wire.DeadLetterHeaders;
import java.nio.charset.StandardCharsets;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * The dead letter of a failed record: the original key, value, timestamp and headers, plus headers that say why
 * ({@code sluice.error.class}, {@code sluice.error.message}) and where from ({@code sluice.source.topic},
 * {@code .partition}, {@code .offset}, {@code .topic.id}, {@code .group}, {@code sluice.attempts}), which the audit
 * reads back.
 */
final class DeadLetterRecord {

    private DeadLetterRecord() {
    }

    /**
     * @param group    the dead-lettering engine's consumer group
     * @param topicIds the consumed topics' IDs (null for a topic not looked up: the letter then names none)
     */
    static ProducerRecord<byte[], byte[]> of(String topic, String group, Function<String, Uuid> topicIds,
            ConsumerRecord<byte[], byte[]> record, Throwable error, int attempts) {
        RecordHeaders headers = new RecordHeaders(record.headers().toArray());
        headers.add(DeadLetterHeaders.ERROR_CLASS, utf8(error.getClass().getName()));
        headers.add(DeadLetterHeaders.ERROR_MESSAGE, utf8(String.valueOf(error.getMessage())));
        headers.add(DeadLetterHeaders.SOURCE_TOPIC, utf8(record.topic()));
        headers.add(DeadLetterHeaders.SOURCE_PARTITION, utf8(Integer.toString(record.partition())));
        headers.add(DeadLetterHeaders.SOURCE_OFFSET, utf8(Long.toString(record.offset())));
        Uuid topicId = topicIds.apply(record.topic());
        if (topicId != null) {
            headers.add(DeadLetterHeaders.SOURCE_TOPIC_ID, utf8(topicId.toString()));
        }
        headers.add(DeadLetterHeaders.SOURCE_GROUP, utf8(group));
        headers.add(DeadLetterHeaders.ATTEMPTS, utf8(Integer.toString(attempts)));
        // a record of the old message format has no timestamp (-1); the producer then stamps the letter itself
        Long timestamp = record.timestamp() < 0 ? null : record.timestamp();
        return new ProducerRecord<>(topic, null, timestamp, record.key(), record.value(), headers);
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
