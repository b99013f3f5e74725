package io.sluice.testkit.kafka;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Producing and reading back test data with plain Kafka clients: the independent side of every end-to-end check.
 */
public final class TestRecords {

    private TestRecords() {
    }

    /**
     * Sends records keyed {@code "k<i>"} with value {@code "v<i>"} for i in [from, from + count), with acks=all and
     * idempotence, and returns once every one is acknowledged.
     *
     * @throws IllegalStateException naming the first record whose send failed
     */
    public static List<RecordMetadata> produceNumbered(Map<String, Object> client, String topic, long from, int count) {
        List<Future<RecordMetadata>> sends = new ArrayList<>(count);
        try (var producer = new KafkaProducer<>(producerProperties(client), new StringSerializer(),
                new StringSerializer())) {
            for (long i = from; i < from + count; i++) {
                sends.add(producer.send(new ProducerRecord<>(topic, "k" + i, "v" + i)));
            }
            producer.flush();
            List<RecordMetadata> acked = new ArrayList<>(count);
            for (int i = 0; i < sends.size(); i++) {
                try {
                    acked.add(sends.get(i).get());
                } catch (ExecutionException e) {
                    throw new IllegalStateException("record v" + (from + i) + " was not acknowledged", e.getCause());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            }
            return acked;
        }
    }

    /**
     * How {@link #produceNumbered} produces, for a test that writes on with a producer of its own: acks=all,
     * idempotent, records in the order sent.
     */
    public static Map<String, Object> producerProperties(Map<String, Object> client) {
        Map<String, Object> props = new HashMap<>(client);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        props.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        // one request in flight per partition: a retried batch can never be overtaken by a later one
        props.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1);
        props.put(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
        props.putIfAbsent(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 60_000);
        return props;
    }

    /**
     * Reads every partition of {@code topic} from the beginning to the end offsets seen when reading starts
     * ({@code read_committed}: up to the last stable offset, so not past a transaction still open), without a
     * consumer group.
     *
     * @throws IllegalStateException when the end is not reached within {@code timeout}
     */
    public static List<ConsumerRecord<byte[], byte[]>> readAll(Map<String, Object> client, String topic,
            Duration timeout) {
        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        read(client, topic, timeout, false, records::add);
        return records;
    }

    /**
     * As {@link #readAll}, but to the end of each partition's log as it is when reading starts, once every transaction
     * written below it is decided: the check of what a transactional writer left once it stopped. Its last commit
     * returns to the writer before the markers reach the partitions, so reading only up to the last stable offset
     * right after it can miss that transaction's records (a flake of the mirror's crash test).
     *
     * @throws IllegalStateException when the end is not reached within {@code timeout}, naming each partition that a
     *     transaction still holds open
     */
    public static List<ConsumerRecord<byte[], byte[]>> readAllDecided(Map<String, Object> client, String topic,
            Duration timeout) {
        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        read(client, topic, timeout, true, records::add);
        return records;
    }

    /**
     * As {@link #readAll}, handing each record to {@code each} as it is read instead of keeping them all (a topic
     * too large for the heap).
     *
     * @return how many records were read
     */
    public static long readEach(Map<String, Object> client, String topic, Duration timeout,
            Consumer<ConsumerRecord<byte[], byte[]>> each) {
        return read(client, topic, timeout, false, each);
    }

    /** Reads to the last stable offsets, or to the log ends once every transaction below them is decided. */
    private static long read(Map<String, Object> client, String topic, Duration timeout, boolean decided,
            Consumer<ConsumerRecord<byte[], byte[]>> each) {
        Map<String, Object> props = new HashMap<>(client);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.remove(ConsumerConfig.GROUP_ID_CONFIG);
        // at the end of a partition the broker holds a fetch up to this long, and closing waited for it: half a
        // second a read, in every test that reads a topic back
        props.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 50);
        long read = 0;
        var consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        try {
            List<TopicPartition> partitions = consumer.partitionsFor(topic, timeout).stream()
                    .map(p -> new TopicPartition(topic, p.partition())).collect(Collectors.toList());
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = decided ? logEnds(client, partitions, timeout)
                    : consumer.endOffsets(partitions, timeout);
            long deadline = System.nanoTime() + timeout.toNanos();
            while (partitions.stream().anyMatch(tp -> consumer.position(tp, timeout) < end.get(tp))) {
                if (System.nanoTime() > deadline) {
                    Map<TopicPartition, Long> stable = consumer.endOffsets(partitions, timeout);
                    String open = partitions.stream().filter(tp -> stable.get(tp) < end.get(tp))
                            .map(tp -> tp.partition() + " (stable up to " + stable.get(tp) + " of " + end.get(tp) + ")")
                            .collect(Collectors.joining(", "));
                    throw new IllegalStateException("did not reach the end of " + topic + " within " + timeout
                            + ": read " + read + " records, end offsets " + end
                            + (open.isEmpty() ? "" : "; a transaction is still open in partitions " + open));
                }
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(100))) {
                    each.accept(r);
                    read++;
                }
            }
        } finally {
            consumer.close(CloseOptions.timeout(Duration.ZERO)); // no group to leave, nothing to commit
        }
        return read;
    }

    /** The end of each partition's log (its high watermark): markers and undecided transactions included. */
    private static Map<TopicPartition, Long> logEnds(Map<String, Object> client, List<TopicPartition> partitions,
            Duration timeout) {
        Map<String, Object> props = new HashMap<>(client);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_uncommitted");
        props.remove(ConsumerConfig.GROUP_ID_CONFIG);
        try (var ends = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            return ends.endOffsets(partitions, timeout);
        }
    }

    /** The values of {@code records} as strings. */
    public static List<String> values(List<ConsumerRecord<byte[], byte[]>> records) {
        return records.stream().map(r -> new String(r.value(), StandardCharsets.UTF_8)).collect(Collectors.toList());
    }
}
