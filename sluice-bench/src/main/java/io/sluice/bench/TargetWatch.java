package io.sluice.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The target topic of a mirror run (or the topics of a merge run) as its readers see it: a read_committed consumer
 * that counts the copies of the scenario's records by the {@code seq} each value carries (so a doubled record shows, whoever copied it), and notes
 * when the first and the last of them became visible. It runs in the benchmark's JVM, so reading costs the copier no
 * CPU; it never counts by end offsets, which include transaction markers.
 *
 * <p>Threading: one thread.
 */
final class TargetWatch implements AutoCloseable {

    private static final Duration POLL = Duration.ofMillis(20);

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final List<String> topics;
    private final int partitions;
    private final int records;
    private final BitSet seen;
    private long copies;
    private long distinct;
    private long valueBytes;
    private long firstNanos;
    private long lastNanos;
    private java.util.function.Consumer<ConsumerRecord<byte[], byte[]>> observer = r -> { };

    /** Connects before the copier starts, so that the consumer's start-up is not in the time to the first record. */
    TargetWatch(Map<String, Object> targetClient, String topic, int partitions, int records) {
        this(targetClient, List.of(topic), partitions, records);
    }

    /** Watches several topics of {@code partitions} partitions each, whose records together are {@code records}. */
    TargetWatch(Map<String, Object> targetClient, List<String> topics, int partitions, int records) {
        Map<String, Object> props = new HashMap<>(targetClient);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        this.consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        consumer.listTopics(Duration.ofSeconds(30));
        this.topics = List.copyOf(topics);
        this.partitions = partitions;
        this.records = records;
        this.seen = new BitSet(records);
    }

    /** Shows every record read to {@code observer} too, on the reading thread. */
    void observe(java.util.function.Consumer<ConsumerRecord<byte[], byte[]>> observer) {
        this.observer = observer;
    }

    /**
     * Reads until every record of the scenario is there; {@code onFirst} runs as soon as the first one is.
     *
     * @param copierStopped says whether the copier ended or failed, which ends the wait with an error
     */
    void awaitAll(Duration timeout, Runnable onFirst, BooleanSupplier copierStopped) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        awaitTopic(deadline, copierStopped);
        while (distinct < records) {
            boolean none = firstNanos == 0;
            read();
            if (none && firstNanos != 0) {
                onFirst.run();
            }
            if (distinct < records) {
                check(deadline, copierStopped);
            }
        }
    }

    /**
     * After the copier stopped: reads on to the last stable offset, so that a record copied again after the last one
     * showed is counted as the duplicate it is.
     */
    void drain(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        List<TopicPartition> assigned = List.copyOf(consumer.assignment());
        // a read_committed consumer's end offsets are the last stable offsets: a transaction left open stops no one
        Map<TopicPartition, Long> ends = consumer.endOffsets(assigned);
        while (assigned.stream().anyMatch(tp -> consumer.position(tp) < ends.get(tp))) {
            read();
            check(deadline, () -> false);
        }
    }

    long copies() {
        return copies;
    }

    long distinct() {
        return distinct;
    }

    long duplicates() {
        return copies - distinct;
    }

    long valueBytes() {
        return valueBytes;
    }

    /** When the first copy became visible ({@link System#nanoTime()}). */
    long firstNanos() {
        return firstNanos;
    }

    /** When the last record's first copy became visible. */
    long lastNanos() {
        return lastNanos;
    }

    private void read() {
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(POLL)) {
            long now = System.nanoTime();
            if (firstNanos == 0) {
                firstNanos = now;
            }
            copies++;
            observer.accept(r);
            int seq = BenchData.seqOf(r.value());
            if (!seen.get(seq)) {
                seen.set(seq);
                distinct++;
                valueBytes += r.value().length;
                if (distinct == records) {
                    lastNanos = now;
                }
            }
        }
    }

    /** The copier makes the target topics: assigned once they exist with every partition. */
    private void awaitTopic(long deadline, BooleanSupplier copierStopped) throws InterruptedException {
        List<TopicPartition> tps = new ArrayList<>();
        for (String topic : topics) {
            while (true) {
                List<PartitionInfo> found = consumer.partitionsFor(topic, Duration.ofSeconds(5));
                if (found != null && found.size() >= partitions) {
                    found.forEach(p -> tps.add(new TopicPartition(topic, p.partition())));
                    break;
                }
                check(deadline, copierStopped);
                Thread.sleep(10);
            }
        }
        consumer.assign(tps);
        consumer.seekToBeginning(tps);
    }

    private void check(long deadline, BooleanSupplier copierStopped) {
        if (copierStopped.getAsBoolean()) {
            throw new IllegalStateException("the copier stopped when " + distinct + " of " + records
                    + " records had reached " + String.join(", ", topics));
        }
        if (System.nanoTime() > deadline) {
            throw new IllegalStateException(distinct + " of " + records + " records reached "
                    + String.join(", ", topics) + " in time");
        }
    }

    @Override
    public void close() {
        consumer.close(Duration.ofSeconds(5));
    }
}
